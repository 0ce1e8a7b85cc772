import Foundation

/// Property-list values as text, in the style macOS `defaults read` prints (the old-style
/// description of Foundation's collections): `{ key = value; }`, `( a, b )`, Booleans as
/// 1 and 0.
///
/// Quoting, as macOS prints it: every scalar (key, string, number, date) is first turned
/// into its text, then that text is printed bare only when it is non-empty and made of
/// ASCII letters, digits and `_` alone; anything else is quoted. So keys such as
/// `"com.apple.mouse.scaling"`, paths, URLs, negative numbers (`"-1"`) and reals with a
/// fraction (`"0.5"`) are quoted inside a domain or collection, as in macOS's
/// `defaults read -g`; `14` and `Ada` are not. Inside quotes, `"` and `\` are escaped, line
/// breaks and tabs are written `\n`, `\t`, other control characters and every non-ASCII
/// character `\Uxxxx` (UTF-16 code units, four lowercase hex digits), as macOS prints
/// `"Save As\U2026"`. At the top level (`defaults read domain key`) a string or date is
/// printed as it is, without quotes.
enum PropertyListText {
  static func text(_ value: Any, indent: Int = 0) -> String {
    var result = ""
    append(value, indent: indent, to: &result)
    return result
  }

  private static func append(_ value: Any, indent: Int, to result: inout String) {
    let padding = String(repeating: "    ", count: indent)
    let inner = padding + "    "
    if let dictionary = value as? [String: Any] {
      result += "{\n"
      for key in dictionary.keys.sorted() {
        result += inner + quoted(key) + " = "
        append(dictionary[key]!, indent: indent + 1, to: &result)
        result += ";\n"
      }
      result += padding + "}"
      return
    }
    if let array = value as? [Any] {
      result += "(\n"
      for (position, item) in array.enumerated() {
        result += inner
        append(item, indent: indent + 1, to: &result)
        result += position == array.count - 1 ? "\n" : ",\n"
      }
      result += padding + ")"
      return
    }
    result += scalar(value)
  }

  /// A value at the top level of `defaults read domain key`: strings and dates print bare.
  static func topLevel(_ value: Any) -> String {
    if let string = value as? String { return string }
    if let date = value as? Date { return dateText(date) }
    if value is Data { return scalar(value) }
    if let number = value as? NSNumber { return numberText(number) }
    return text(value)
  }

  /// A scalar inside a collection, quoted when macOS quotes it.
  static func scalar(_ value: Any) -> String {
    switch value {
    case let string as String: return quoted(string)
    case let data as Data: return dataText(data)
    case let date as Date: return quoted(dateText(date))
    case let number as NSNumber: return quoted(numberText(number))
    default: return quoted("\(value)")
    }
  }

  /// A number's text: Booleans 1 and 0, integers in decimal, reals by ``realText(_:)``.
  static func numberText(_ number: NSNumber) -> String {
    switch UInt8(bitPattern: number.objCType.pointee) {
    case UInt8(ascii: "c"): return number.boolValue ? "1" : "0"
    case UInt8(ascii: "d"), UInt8(ascii: "f"): return realText(number.doubleValue)
    case UInt8(ascii: "Q"), UInt8(ascii: "L"), UInt8(ascii: "I"): return "\(number.uint64Value)"
    default: return "\(number.int64Value)"
    }
  }

  /// A real as macOS `defaults read` prints it: the shortest digits that read back as the
  /// same `Double` (so 0.1 is `0.1`, never `0.10000000000000001` as plain `%.17g` would
  /// give), with no exponent and no trailing `.0` for the magnitudes scripts use:
  /// `-float 14` prints `14`, `-float 1e20` prints `100000000000000000000`, `0.5` prints
  /// `0.5`. Where macOS's own rule is not documented (magnitudes from 1e21 up or below
  /// 1e-6) this follows the same convention as ECMAScript's `Number.prototype.toString`,
  /// whose cut-offs agree with every case above: positional notation for
  /// 1e-7 ≤ |x| < 1e21, else `d.ddde+N` / `d.ddde-N`.
  static func realText(_ real: Double) -> String {
    if real.isNaN { return "nan" }
    if real.isInfinite { return real < 0 ? "-inf" : "inf" }
    if real == 0 { return real.sign == .minus ? "-0" : "0" }
    let sign = real < 0 ? "-" : ""
    // Swift's description gives the shortest round-trip digits, in one of the forms
    // "123.45", "0.00012" or "1.2345e-07"; take out the digits and the decimal point's place.
    let description = "\(real.magnitude)"
    var mantissa = Substring(description)
    var exponent = 0
    if let e = description.firstIndex(of: "e") {
      mantissa = description[..<e]
      exponent = Int(description[description.index(after: e)...]) ?? 0
    }
    let point = mantissa.firstIndex(of: ".") ?? mantissa.endIndex
    var digits = String(mantissa[..<point]) + mantissa[point...].dropFirst()
    // The value is 0.<digits> × 10^pointPlace.
    var pointPlace = mantissa.distance(from: mantissa.startIndex, to: point) + exponent
    while digits.hasPrefix("0") {
      digits.removeFirst()
      pointPlace -= 1
    }
    while digits.hasSuffix("0") { digits.removeLast() }
    let count = digits.count
    if count <= pointPlace && pointPlace <= 21 {
      return sign + digits + String(repeating: "0", count: pointPlace - count)
    }
    if 0 < pointPlace && pointPlace <= 21 {
      return sign + digits.prefix(pointPlace) + "." + digits.dropFirst(pointPlace)
    }
    if -6 < pointPlace && pointPlace <= 0 {
      return sign + "0." + String(repeating: "0", count: -pointPlace) + digits
    }
    let fraction = count > 1 ? "." + digits.dropFirst() : ""
    let power = pointPlace - 1
    return sign + digits.prefix(1) + fraction + "e" + (power < 0 ? "-" : "+") + "\(abs(power))"
  }

  /// Data as macOS prints it: `{length = 2, bytes = 0x00ff}`; past 24 bytes only the
  /// first 16 and the last 8, in groups of four bytes:
  /// `{length = 1290, bytes = 0x62706c69 73743030 d4010203 04050607 ... 00000000 00000d43 }`.
  /// Printing a 10 MB value therefore costs nothing.
  static func dataText(_ data: Data) -> String {
    let digits = Array("0123456789abcdef".utf8)
    func hex<Bytes: Collection<UInt8>>(_ bytes: Bytes, grouped: Bool) -> String {
      var text: [UInt8] = []
      for (position, byte) in bytes.enumerated() {
        if grouped && position > 0 && position % 4 == 0 { text.append(UInt8(ascii: " ")) }
        text.append(digits[Int(byte >> 4)])
        text.append(digits[Int(byte & 0x0f)])
      }
      return String(decoding: text, as: UTF8.self)
    }
    guard data.count > 24 else {
      return "{length = \(data.count), bytes = 0x\(hex(data, grouped: false))}"
    }
    return "{length = \(data.count), bytes = 0x\(hex(data.prefix(16), grouped: true)) ... "
      + "\(hex(data.suffix(8), grouped: true)) }"
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

  /// Whether macOS prints `text` without quotes: non-empty, ASCII letters, digits and `_`.
  static func isBare(_ text: String) -> Bool {
    !text.isEmpty
      && text.utf8.allSatisfy { byte in
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
          UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
          true
        default: false
        }
      }
  }

  static func quoted(_ string: String) -> String {
    if isBare(string) { return string }
    var escaped = "\""
    for unit in string.utf16 {
      switch unit {
      case 0x22: escaped += "\\\""
      case 0x5C: escaped += "\\\\"
      case 0x0A: escaped += "\\n"
      case 0x09: escaped += "\\t"
      case 0x20..<0x7F: escaped.unicodeScalars.append(Unicode.Scalar(UInt8(unit)))
      default:
        let hex = String(unit, radix: 16)
        escaped += "\\U" + String(repeating: "0", count: 4 - hex.count) + hex
      }
    }
    return escaped + "\""
  }
}
