// libFuzzer's driver, for FlagstaffFuzz's own `main` (docs/fuzzing.md). Only called in the fuzz build, which
// links libFuzzer; a plain build declares it and never calls it, so nothing is linked.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
