// Placeholder: FlagstaffFirebase lands with its issue.
