import Foundation

/// Property-list values as text, in the style macOS `defaults read` prints:
/// `{ key = value; }`, `( a, b )`, strings quoted when they need it, Booleans as 1 and 0.
enum PropertyListText {
  static func text(_ value: Any, indent: Int = 0) -> String {
    let padding = String(repeating: "    ", count: indent)
    let inner = String(repeating: "    ", count: indent + 1)
    if let dictionary = value as? [String: Any] {
      if dictionary.isEmpty { return "{\n\(padding)}" }
      let lines = dictionary.keys.sorted().map { key in
        "\(inner)\(quoted(key)) = \(text(dictionary[key]!, indent: indent + 1));"
      }
      return "{\n" + lines.joined(separator: "\n") + "\n\(padding)}"
    }
    if let array = value as? [Any] {
      if array.isEmpty { return "(\n\(padding))" }
      let lines = array.map { inner + text($0, indent: indent + 1) }
      return "(\n" + lines.joined(separator: ",\n") + "\n\(padding))"
    }
    return scalar(value)
  }

  /// A value at the top level of `defaults read domain key`: strings print bare.
  static func topLevel(_ value: Any) -> String {
    if let string = value as? String { return string }
    return text(value)
  }

  static func scalar(_ value: Any) -> String {
    switch value {
    case let string as String: return quoted(string)
    case let data as Data:
      let hex = data.map { String(format: "%02x", $0) }.joined()
      return "{length = \(data.count), bytes = 0x\(hex)}"
    case let date as Date: return quoted(dateText(date))
    case let number as NSNumber:
      switch UInt8(bitPattern: number.objCType.pointee) {
      case UInt8(ascii: "c"): return number.boolValue ? "1" : "0"
      case UInt8(ascii: "d"), UInt8(ascii: "f"): return "\(number.doubleValue)"
      case UInt8(ascii: "Q"), UInt8(ascii: "L"), UInt8(ascii: "I"): return "\(number.uint64Value)"
      default: return "\(number.int64Value)"
      }
    default: return quoted("\(value)")
    }
  }

  /// The name macOS `defaults read-type` gives the value's type.
  static func typeName(_ value: Any) -> String {
    switch value {
    case is String: return "string"
    case is Data: return "data"
    case is Date: return "date"
    case is [String: Any]: return "dictionary"
    case is [Any]: return "array"
    case let number as NSNumber:
      switch UInt8(bitPattern: number.objCType.pointee) {
      case UInt8(ascii: "c"): return "boolean"
      case UInt8(ascii: "d"), UInt8(ascii: "f"): return "float"
      default: return "integer"
      }
    default: return "unknown"
    }
  }

  static func dateText(_ date: Date) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd HH:mm:ss Z"
    return formatter.string(from: date)
  }

  private static let plainCharacters = Set(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.$/:-")

  static func quoted(_ string: String) -> String {
    if !string.isEmpty && string.allSatisfy({ plainCharacters.contains($0) }) { return string }
    var escaped = ""
    for character in string {
      switch character {
      case "\"": escaped += "\\\""
      case "\\": escaped += "\\\\"
      case "\n": escaped += "\\n"
      case "\t": escaped += "\\t"
      default: escaped.append(character)
      }
    }
    return "\"\(escaped)\""
  }
}
