// Placeholder: FlagstaffConsole lands with its issue.
