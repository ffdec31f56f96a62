// Placeholder: FlagstaffRemote lands with its issue.
