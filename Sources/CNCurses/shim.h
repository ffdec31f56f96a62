#ifndef FLAGSTAFF_CNCURSES_SHIM_H
#define FLAGSTAFF_CNCURSES_SHIM_H
// SwiftPM drops pkg-config's -D_XOPEN_SOURCE=600; without these the wide-character API does not import.
#define NCURSES_WIDECHAR 1
#define _XOPEN_SOURCE_EXTENDED 1
#include <locale.h>
#include <langinfo.h>
#include <signal.h>
#include <pthread.h>
#include <stdio.h>
#include <wchar.h>
#include <ncurses.h>

// Swift 6 rejects the C globals (stdscr, LINES, COLS, ESCDELAY) and does not import attribute or
// function-like macros, so everything the backend needs is reached through these small helpers.

/// Sets the locale from the environment and reports whether its codeset is UTF-8.
static inline int fs_setlocale_is_utf8(void) {
    setlocale(LC_ALL, "");
    const char *codeset = nl_langinfo(CODESET);
    if (codeset == NULL) return 0;
    return (codeset[0] == 'U' || codeset[0] == 'u') && (codeset[1] == 'T' || codeset[1] == 't')
        && (codeset[2] == 'F' || codeset[2] == 'f');
}

/// Initialises the screen in cbreak/noecho/keypad mode with a 100 ms input timeout and a 25 ms Esc delay.
/// Returns 0 on success, -1 when the terminal cannot be initialised (newterm failed).
static inline int fs_start_on(FILE *out, FILE *in, int input_timeout_ms);
static inline int fs_start(int input_timeout_ms) { return fs_start_on(stdout, stdin, input_timeout_ms); }

/// Like fs_start, on given streams (a file or device instead of the process's terminal).
static inline int fs_start_on(FILE *out, FILE *in, int input_timeout_ms) {
    SCREEN *screen = newterm(NULL, out, in);
    if (screen == NULL) return -1;
    // A terminal without cursor addressing (TERM=dumb) cannot show a full-screen console.
    char *cup = tigetstr("cup");
    if (cup == NULL || cup == (char *)-1) {
        endwin();
        delscreen(screen);
        return -1;
    }
    set_escdelay(25);
    cbreak();
    noecho();
    nonl();
    intrflush(stdscr, FALSE);
    keypad(stdscr, TRUE);
    wtimeout(stdscr, input_timeout_ms);
    curs_set(0);
    leaveok(stdscr, TRUE);
    return 0;
}

/// Starts colours with the terminal's default background. Returns 1 when colours are available.
static inline int fs_start_colors(void) {
    if (!has_colors()) return 0;
    if (start_color() != OK) return 0;
    use_default_colors();
    init_pair(1, COLOR_GREEN, -1);
    init_pair(2, COLOR_RED, -1);
    init_pair(3, COLOR_YELLOW, -1);
    init_pair(4, COLOR_CYAN, -1);
    init_pair(5, COLOR_BLUE, -1);
    init_pair(6, COLOR_MAGENTA, -1);
    init_pair(7, COLORS >= 16 ? 8 : COLOR_WHITE, -1);  /* grey: bright black where there is one */
    return 1;
}

static inline int fs_rows(void) { return getmaxy(stdscr); }
static inline int fs_cols(void) { return getmaxx(stdscr); }

/// Sets the current drawing attributes: colour pair (0 = default) and the three text attributes.
static inline void fs_set_style(short pair, int bold, int underline, int reverse) {
    attr_t attrs = A_NORMAL;
    if (bold) attrs |= A_BOLD;
    if (underline) attrs |= A_UNDERLINE;
    if (reverse) attrs |= A_REVERSE;
    wattr_set(stdscr, attrs, pair, NULL);
}

/// Writes `count` wide characters at (row, col) with the current attributes.
static inline void fs_put(int row, int col, const wchar_t *text, int count) {
    mvwaddnwstr(stdscr, row, col, text, count);
}

/// Reads one key or character; returns the get_wch status (OK, KEY_CODE_YES or ERR) and stores the value.
static inline int fs_read(unsigned int *value) {
    wint_t ch = 0;
    int status = wget_wch(stdscr, &ch);
    *value = (unsigned int)ch;
    return status;
}

static inline void fs_set_timeout(int milliseconds) { wtimeout(stdscr, milliseconds); }
static inline void fs_refresh(void) { wnoutrefresh(stdscr); doupdate(); }
static inline void fs_clear_all(void) { clearok(stdscr, TRUE); werase(stdscr); }
static inline void fs_end(void) { if (!isendwin()) endwin(); }
static inline int fs_key_f1(void) { return KEY_F(1); }

/// Installs `handler` for `signum` without SA_RESTART, so a blocking read returns and the loop sees it.
/// The previous disposition is saved in `old` so it can be restored with fs_restore_signal.
static inline int fs_install_signal(int signum, void (*handler)(int), struct sigaction *old) {
    struct sigaction action;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0;
    action.sa_handler = handler;
    return sigaction(signum, &action, old);
}

/// Restores a disposition saved by fs_install_signal.
static inline int fs_restore_signal(int signum, const struct sigaction *old) {
    return sigaction(signum, old, NULL);
}

/// Sets the default disposition of `signum` (used to really stop on Ctrl-Z after the screen is restored).
static inline int fs_default_signal(int signum) {
    struct sigaction action;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0;
    action.sa_handler = SIG_DFL;
    return sigaction(signum, &action, NULL);
}

/// Unblocks `signum` in the calling thread (processes started from test threads may inherit it blocked).
static inline void fs_unblock_signal(int signum) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, signum);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
}

#endif
