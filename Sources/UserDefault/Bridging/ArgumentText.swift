/// How a typed read takes a launch argument, which is text: `-count 5` stores the string
/// `"5"`. Foundation's `integer(forKey:)`, `bool(forKey:)` and `double(forKey:)` convert
/// such a string; a typed key does the same, for launch arguments only (a string stored in
/// a file under an `Int` key stays the wrong type, as the library's README says).
///
/// Cost: none on the read path; a read whose stored object does not decode tries these
/// readings in turn, for an argument's text only.
enum ArgumentText {
  /// The property-list objects `text` may stand for, to try in order after the text
  /// itself: a Boolean (`YES`, `NO`, `true`, `false`, `1`, `0`, any case), an integer, a
  /// real. A `RawRepresentable` with an integer raw value reads through the integer; a
  /// `Codable` reads its JSON text as it is.
  static func readings(of text: String) -> [Any] {
    var readings: [Any] = []
    switch text.lowercased() {
    case "yes", "true", "1": readings.append(true)
    case "no", "false", "0": readings.append(false)
    default: break
    }
    if let integer = Int(text) { readings.append(integer) }
    // Decimal text only: `Double(_:)` also takes hexadecimal, `nan` and `inf`.
    let decimal = text.utf8.allSatisfy { byte in
      (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || "+-.eE".utf8.contains(byte)
    }
    if decimal, let real = Double(text) { readings.append(real) }
    return readings
  }

  /// The date an ISO 8601 date-time stands for (`2024-01-01T00:00:00Z`, with a fraction
  /// `…00.250Z`, with an offset `…01:00:00+01:00`); `nil` for any other text, a bare
  /// number included. Foundation itself turns the property-list form
  /// (`<date>2024-01-01T00:00:00Z</date>`) into a date.
  static func date(from text: String) -> Date? {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    if let date = formatter.date(from: text) { return date }
    formatter.formatOptions = [.withInternetDateTime]
    return formatter.date(from: text)
  }

  /// A date, to ask whether a key takes dates (one that does reads no number from text).
  static let sampleDate = Date(timeIntervalSinceReferenceDate: 0)
}
