/// How a typed read takes a launch argument's text (`-count 5` stores `"5"`), as
/// Foundation's `integer(forKey:)` does; for launch arguments only. Cost: none unless
/// the stored object does not decode.
enum ArgumentText {
  /// What `text` may stand for, in order after itself: a Boolean (`YES`, `true`, `1`, any
  /// case), an integer, a real.
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

  /// The date of an ISO 8601 date-time (a fraction and an offset allowed); `nil` for other
  /// text, a bare number included.
  static func date(from text: String) -> Date? {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    if let date = formatter.date(from: text) { return date }
    formatter.formatOptions = [.withInternetDateTime]
    return formatter.date(from: text)
  }

  /// To ask whether a key takes dates, which read no number from text.
  static let sampleDate = Date(timeIntervalSinceReferenceDate: 0)
}
