import Foundation

/// Reads old-style (OpenStep) property-list text, the form macOS `defaults write` gives an
/// untyped value: `"a string"`, `word`, `( item, item )`, `{ key = value; }`, `<0fab>`.
/// Every scalar is a string, as in the format itself. Comments (`//`, `/* */`) are skipped.
///
/// Written for the tool rather than taken from Foundation: Foundation's reader also accepts
/// strings-file text (`a = b;` is a dictionary there) and differs between platforms.
enum OldStylePropertyList {
  struct SyntaxError: Error {}

  /// The one value `text` holds, or `nil` when it is not exactly one property list.
  static func parse(_ text: String) -> Any? {
    var parser = Parser(scalars: Array(text.unicodeScalars))
    guard let value = try? parser.value(), (try? parser.skipBlanks()) != nil, parser.atEnd
    else { return nil }
    return value
  }

  /// Characters a string may be written with, without quotes (CoreFoundation's reader
  /// accepts the same ASCII set).
  static func isUnquotedCharacter(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar {
    case "a"..."z", "A"..."Z", "0"..."9", "_", "$", "/", ":", ".", "-": true
    default: false
    }
  }

  private struct Parser {
    let scalars: [Unicode.Scalar]
    var index = 0

    var atEnd: Bool { index == scalars.count }

    mutating func skipBlanks() throws(SyntaxError) {
      while index < scalars.count {
        let scalar = scalars[index]
        if scalar.properties.isWhitespace {
          index += 1
        } else if scalar == "/", index + 1 < scalars.count, scalars[index + 1] == "/" {
          while index < scalars.count, scalars[index] != "\n" { index += 1 }
        } else if scalar == "/", index + 1 < scalars.count, scalars[index + 1] == "*" {
          index += 2
          while index + 1 < scalars.count, !(scalars[index] == "*" && scalars[index + 1] == "/") {
            index += 1
          }
          guard index + 1 < scalars.count else { throw SyntaxError() }
          index += 2
        } else {
          return
        }
      }
    }

    mutating func value() throws(SyntaxError) -> Any {
      try skipBlanks()
      guard index < scalars.count else { throw SyntaxError() }
      switch scalars[index] {
      case "(": return try array()
      case "{": return try dictionary()
      case "<": return try data()
      case "\"", "'": return try quotedString()
      default: return try unquotedString()
      }
    }

    mutating func expect(_ scalar: Unicode.Scalar) throws(SyntaxError) {
      try skipBlanks()
      guard index < scalars.count, scalars[index] == scalar else { throw SyntaxError() }
      index += 1
    }

    mutating func next(is scalar: Unicode.Scalar) throws(SyntaxError) -> Bool {
      try skipBlanks()
      return index < scalars.count && scalars[index] == scalar
    }

    mutating func array() throws(SyntaxError) -> [Any] {
      index += 1  // (
      var items: [Any] = []
      while !(try next(is: ")")) {
        items.append(try value())
        if try next(is: ",") { index += 1 } else { break }
      }
      try expect(")")
      return items
    }

    mutating func dictionary() throws(SyntaxError) -> [String: Any] {
      index += 1  // {
      var entries: [String: Any] = [:]
      while !(try next(is: "}")) {
        guard let key = try value() as? String else { throw SyntaxError() }
        try expect("=")
        entries[key] = try value()
        try expect(";")
      }
      try expect("}")
      return entries
    }

    mutating func data() throws(SyntaxError) -> Data {
      index += 1  // <
      var bytes: [UInt8] = []
      var high: UInt8?
      while index < scalars.count, scalars[index] != ">" {
        let scalar = scalars[index]
        index += 1
        if scalar.properties.isWhitespace { continue }
        guard scalar.isASCII, let digit = UInt8(String(scalar), radix: 16) else {
          throw SyntaxError()
        }
        if let first = high {
          bytes.append(first << 4 | digit)
          high = nil
        } else {
          high = digit
        }
      }
      guard high == nil, index < scalars.count else { throw SyntaxError() }
      index += 1  // >
      return Data(bytes)
    }

    mutating func unquotedString() throws(SyntaxError) -> String {
      let start = index
      while index < scalars.count, OldStylePropertyList.isUnquotedCharacter(scalars[index]) {
        index += 1
      }
      guard index > start else { throw SyntaxError() }
      var text = String.UnicodeScalarView()
      text.append(contentsOf: scalars[start..<index])
      return String(text)
    }

    mutating func quotedString() throws(SyntaxError) -> String {
      let quote = scalars[index]
      index += 1
      var text = String.UnicodeScalarView()
      var pendingHighSurrogate: UInt32?
      while index < scalars.count, scalars[index] != quote {
        var scalar = scalars[index]
        index += 1
        if scalar == "\\" {
          guard index < scalars.count else { throw SyntaxError() }
          let escape = scalars[index]
          index += 1
          switch escape {
          case "a": scalar = "\u{07}"
          case "b": scalar = "\u{08}"
          case "f": scalar = "\u{0C}"
          case "n": scalar = "\n"
          case "r": scalar = "\r"
          case "t": scalar = "\t"
          case "v": scalar = "\u{0B}"
          case "U", "u":
            let code = digits(radix: 16, limit: 4)
            if (0xD800..<0xDC00).contains(code) {
              pendingHighSurrogate = code
              continue
            }
            if let high = pendingHighSurrogate, (0xDC00..<0xE000).contains(code) {
              pendingHighSurrogate = nil
              let combined = 0x10000 + ((high - 0xD800) << 10) + (code - 0xDC00)
              guard let pair = Unicode.Scalar(combined) else { throw SyntaxError() }
              scalar = pair
            } else {
              guard let single = Unicode.Scalar(code) else { throw SyntaxError() }
              scalar = single
            }
          case "0"..."7":
            index -= 1
            guard let octal = Unicode.Scalar(digits(radix: 8, limit: 3)) else {
              throw SyntaxError()
            }
            scalar = octal
          default: scalar = escape
          }
        }
        pendingHighSurrogate = nil
        text.append(scalar)
      }
      guard index < scalars.count else { throw SyntaxError() }  // unterminated
      index += 1
      return String(text)
    }

    /// Up to `limit` digits of `radix`, as a number (0 when there are none).
    mutating func digits(radix: UInt32, limit: Int) -> UInt32 {
      var value: UInt32 = 0
      var count = 0
      while count < limit, index < scalars.count, scalars[index].isASCII,
        let digit = UInt32(String(scalars[index]), radix: Int(radix))
      {
        value = value * radix + digit
        index += 1
        count += 1
      }
      return value
    }
  }
}
