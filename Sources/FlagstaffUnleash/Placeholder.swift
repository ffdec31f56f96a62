// Placeholder: FlagstaffUnleash lands with its issue.
