import Flagstaff

/// The inline editor of a typed setting's value: a one-line text buffer with a cursor, validated after every
/// change by the setting itself (``ConsoleSetting/parse(_:)``).
package struct ValueEditor: Sendable, Equatable {
    /// The store key of the setting edited.
    package let key: String
    /// The setting as it was when the editor opened (its type parses and validates the text).
    package let setting: ConsoleSetting
    /// The text, as characters.
    package private(set) var characters: [Character]
    /// The cursor, as an offset into ``characters`` (0…count).
    package private(set) var cursor: Int
    /// The value the text parses to, or why it is not valid (`must be 1…100`).
    package private(set) var result: Result<OverrideValue, SettingValueError>

    /// Opens an editor prefilled with `text`, the cursor at its end.
    /// - Parameters:
    ///   - key: the setting's key.
    ///   - setting: the setting.
    ///   - text: the initial text (the value as a person types it).
    package init(key: String, setting: ConsoleSetting, text: String) {
        self.key = key
        self.setting = setting
        characters = Array(text)
        cursor = characters.count
        result = .failure(SettingValueError(""))
        validate()
    }

    /// The text.
    package var text: String { String(characters) }

    /// What a key does to the buffer.
    package enum Command: Sendable, Hashable {
        /// One character left.
        case left
        /// One character right.
        case right
        /// To the start.
        case home
        /// To the end.
        case end
        /// Delete the character before the cursor.
        case deleteBackward
        /// Delete the character under the cursor.
        case deleteForward
        /// Delete everything before the cursor (`Ctrl-U`).
        case deleteToStart
        /// Delete the word before the cursor, and the spaces after it (`Ctrl-W`).
        case deleteWordBackward
    }

    /// Inserts a character at the cursor.
    package mutating func insert(_ character: Character) {
        characters.insert(character, at: cursor)
        cursor += 1
        validate()
    }

    /// Carries out a command.
    package mutating func perform(_ command: Command) {
        switch command {
        case .left: cursor = max(0, cursor - 1)
        case .right: cursor = min(characters.count, cursor + 1)
        case .home: cursor = 0
        case .end: cursor = characters.count
        case .deleteBackward:
            guard cursor > 0 else { return }
            characters.remove(at: cursor - 1)
            cursor -= 1
        case .deleteForward:
            guard cursor < characters.count else { return }
            characters.remove(at: cursor)
        case .deleteToStart:
            characters.removeFirst(cursor)
            cursor = 0
        case .deleteWordBackward:
            var start = cursor
            while start > 0, characters[start - 1].isWhitespace { start -= 1 }
            while start > 0, !characters[start - 1].isWhitespace { start -= 1 }
            characters.removeSubrange(start..<cursor)
            cursor = start
        }
        validate()
    }

    private mutating func validate() {
        do {
            result = .success(try setting.parse(text))
        } catch {
            result = .failure(error)
        }
    }

    /// Why the text is not a valid value, or `nil` when it is.
    package var problem: String? {
        if case .failure(let error) = result { return error.reason }
        return nil
    }
}
