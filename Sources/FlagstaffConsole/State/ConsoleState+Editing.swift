import Flagstaff
import Foundation

extension ConsoleState {
    /// `Enter` (`inline`) or `e` on the selected row: the inline editor, or for `e` the picker of an enum
    /// setting and the external editor of a JSON setting; on a flag, a hint.
    mutating func editSelected(inline: Bool) -> [ConsoleEffect] {
        guard let flag = selectedFlag else {
            statusMessage = rows.isEmpty ? "No flag selected" : "Select a setting to edit it (this row is a group)"
            return []
        }
        guard let setting = flag.setting else {
            statusMessage = "\(flag.label) is an on/off flag: o forces ON, x OFF, Space flips, r resets"
            return []
        }
        if !inline, !setting.type.choices.isEmpty {
            let choices = setting.type.choices
            let current = setting.value.stringValue.flatMap { choices.firstIndex(of: $0) }
            mode = .pick(
                ChoicePicker(
                    key: flag.key, label: flag.label, choices: choices, selected: current ?? 0, current: current))
            return []
        }
        if !inline, setting.type == .json {
            return [.editExternally(key: flag.key, text: Self.prettyJSON(setting.value))]
        }
        mode = .edit(ValueEditor(key: flag.key, setting: setting, text: setting.text(setting.value)))
        return []
    }

    /// `o`/`x` on a typed setting: sets a boolean setting, explains the keys for any other.
    mutating func forceSetting(
        _ flag: ConsoleFlag, _ setting: ConsoleSetting, key: String, value: OverrideValue
    ) -> [ConsoleEffect] {
        if setting.isBoolean { return write(.values([flag.key: .set(value)]), note: Self.changeNote(flag, to: value)) }
        statusMessage =
            "\(key) forces flags only; \(flag.label) is \(Self.typeName(setting)) setting: " + editKeysHint(setting)
        return []
    }

    /// `Space` on a typed setting: flips a boolean setting, moves an enum setting to its next choice, explains
    /// the keys for any other.
    mutating func flipSetting(_ flag: ConsoleFlag, _ setting: ConsoleSetting) -> [ConsoleEffect] {
        let next: OverrideValue? = setting.isBoolean ? (setting.value == .on ? .off : .on) : setting.nextChoice
        if let next {
            // Cycling a choice onto the value the setting has without an override resets it: no override equal
            // to its default.
            let stored = !setting.isBoolean && next == setting.valueWithoutOverride ? nil : next
            return write(.values([flag.key: OverrideEdit(stored)]), note: Self.changeNote(flag, to: next))
        }
        statusMessage =
            "Space flips flags and cycles choices; \(flag.label) is \(Self.typeName(setting)) setting: "
            + editKeysHint(setting)
        return []
    }

    /// `an integer`, `a string`, `a JSON`.
    private static func typeName(_ setting: ConsoleSetting) -> String {
        let name = setting.type == .json ? "JSON" : setting.type.name
        return ("aeiou".contains(name.prefix(1)) ? "an " : "a ") + name
    }

    private func editKeysHint(_ setting: ConsoleSetting) -> String {
        setting.type == .json
            ? "e opens $VISUAL/$EDITOR, Enter edits inline, r resets" : "Enter or e edits it, r resets"
    }

    /// `Enter` in the editor or the picker: the write, when the value is valid (an invalid one keeps the
    /// editor open, saying why).
    mutating func commitEdit() -> [ConsoleEffect] {
        if let picker {
            mode = .list
            guard picker.choices.indices.contains(picker.selected) else { return [] }
            let value = OverrideValue(string: picker.choices[picker.selected])
            return write(
                .values([picker.key: .set(value)]),
                note: flag(forKey: picker.key).map { Self.changeNote($0, to: value) })
        }
        guard let editor else { return [] }
        switch editor.result {
        case .success(let value):
            mode = .list
            return write(
                .values([editor.key: .set(value)]),
                note: flag(forKey: editor.key).map { Self.changeNote($0, to: value) })
        case .failure:
            return []  // the editor stays open; its line already says why the value is not valid
        }
    }

    /// `Esc`: closes the editor, the picker or the invalid JSON question; nothing is written.
    mutating func cancelEdit() {
        let label = (editor?.key ?? picker?.key ?? rejectedEdit?.key).flatMap(flag(forKey:))?.label
        mode = .list
        statusMessage = "Edit cancelled" + (label.map { ": \($0) unchanged" } ?? "")
    }

    /// The external editor exited: a valid value is written; an invalid one is kept and offered again.
    mutating func finishExternalEdit(key: String, result: ExternalEditResult) -> [ConsoleEffect] {
        switch result {
        case .failed(let message):
            statusMessage = message
            return []
        case .edited(let text):
            guard let flag = flag(forKey: key), let setting = flag.setting else {
                statusMessage = "\(key) is no longer shown: the edit was not saved"
                return []
            }
            do {
                let value = try setting.parse(text)
                if value == setting.value {
                    statusMessage = "\(flag.label) unchanged"
                    return []
                }
                return write(.values([key: .set(value)]), note: Self.changeNote(flag, to: value))
            } catch {
                mode = .editRejected(RejectedEdit(key: key, text: text, reason: error.reason))
                return []
            }
        }
    }

    /// A value as pretty-printed JSON (keys sorted), for the external editor.
    static func prettyJSON(_ value: OverrideValue) -> String {
        guard let object = try? JSONValue.readFoundation(Data(value.json.utf8)),
            let data = try? JSONSerialization.data(
                withJSONObject: object,
                options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed]),
            let text = String(data: data, encoding: .utf8)
        else { return value.json }
        return text + "\n"
    }
}
