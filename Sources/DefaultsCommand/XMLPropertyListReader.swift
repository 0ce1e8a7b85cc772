import Foundation

/// A fast reader for XML property lists, the format the library and Foundation write on
/// Linux. Foundation's reader takes about a second over a file holding 10 MB of data
/// (most of it spent on the base64 text); this one scans the bytes once and decodes
/// `<data>` in one call, so `defaults read` of such a domain stays well under half a
/// second in a release build. It returns `nil` for anything it does not handle (binary
/// property lists, CDATA sections, malformed text); the caller then asks Foundation,
/// which also produces the error messages.
enum XMLPropertyListReader {
  static func parse(_ data: Data) -> Any? {
    data.withUnsafeBytes { raw -> Any? in
      var reader = Reader(bytes: raw.bindMemory(to: UInt8.self))
      return reader.document()
    }
  }

  private struct Reader {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    private static let lessThan = UInt8(ascii: "<")
    private static let greaterThan = UInt8(ascii: ">")

    mutating func document() -> Any? {
      // Prolog: <?xml …?>, <!DOCTYPE …>, comments, then <plist …>.
      while true {
        skipSpace()
        guard let tag = nextTag() else { return nil }
        if tag.name.hasPrefix("?") || tag.name.hasPrefix("!") { continue }
        guard tag.name == "plist", !tag.isEnd, !tag.isEmpty else { return nil }
        break
      }
      guard let value = value() else { return nil }
      skipSpace()
      guard let end = nextTag(), end.name == "plist", end.isEnd else { return nil }
      return value
    }

    struct Tag {
      var name: String
      var isEnd: Bool
      var isEmpty: Bool
    }

    mutating func skipSpace() {
      while index < bytes.count,
        bytes[index] == 0x20 || bytes[index] == 0x0A
          || bytes[index] == 0x09 || bytes[index] == 0x0D
      {
        index += 1
      }
    }

    /// The tag at `index` (after space), skipping comments; `nil` when there is none.
    mutating func nextTag() -> Tag? {
      while true {
        skipSpace()
        guard index < bytes.count, bytes[index] == Self.lessThan else { return nil }
        if matches("<!--") {
          guard let end = find("-->", from: index + 4) else { return nil }
          index = end + 3
          continue
        }
        if matches("<![CDATA[") { return nil }
        guard let close = find(">", from: index) else { return nil }
        var start = index + 1
        var stop = close
        let isEnd = bytes[start] == UInt8(ascii: "/")
        if isEnd { start += 1 }
        let isEmpty = bytes[stop - 1] == UInt8(ascii: "/")
        if isEmpty { stop -= 1 }
        var nameEnd = start
        while nameEnd < stop, bytes[nameEnd] != 0x20, bytes[nameEnd] != 0x0A,
          bytes[nameEnd] != 0x09, bytes[nameEnd] != 0x0D
        {
          nameEnd += 1
        }
        index = close + 1
        let name = String(
          decoding: UnsafeBufferPointer(rebasing: bytes[start..<nameEnd]), as: UTF8.self)
        return Tag(name: name, isEnd: isEnd, isEmpty: isEmpty)
      }
    }

    func matches(_ text: StaticString) -> Bool {
      let count = text.utf8CodeUnitCount
      guard index + count <= bytes.count else { return false }
      return (0..<count).allSatisfy { bytes[index + $0] == text.utf8Start[$0] }
    }

    func find(_ text: StaticString, from start: Int) -> Int? {
      let count = text.utf8CodeUnitCount
      let first = text.utf8Start[0]
      var position = start
      while position + count <= bytes.count {
        if bytes[position] == first
          && (1..<count).allSatisfy({ bytes[position + $0] == text.utf8Start[$0] })
        {
          return position
        }
        position += 1
      }
      return nil
    }

    /// The raw text up to the end tag `</name>`, which is consumed.
    mutating func content(until name: String) -> UnsafeBufferPointer<UInt8>? {
      let start = index
      while index < bytes.count, bytes[index] != Self.lessThan { index += 1 }
      let text = UnsafeBufferPointer(rebasing: bytes[start..<index])
      guard let end = nextTag(), end.isEnd, end.name == name else { return nil }
      return text
    }

    mutating func text(until name: String) -> String? {
      guard let raw = content(until: name) else { return nil }
      let text = String(decoding: raw, as: UTF8.self)
      return raw.contains(UInt8(ascii: "&")) ? Self.decodeEntities(text) : text
    }

    mutating func value() -> Any? {
      guard let tag = nextTag(), !tag.isEnd else { return nil }
      if tag.isEmpty {
        switch tag.name {
        case "true": return true
        case "false": return false
        case "dict": return [String: Any]()
        case "array": return [Any]()
        case "string": return ""
        case "data": return Data()
        default: return nil
        }
      }
      switch tag.name {
      case "dict":
        var dictionary: [String: Any] = [:]
        while true {
          guard let next = nextTag() else { return nil }
          if next.isEnd && next.name == "dict" { return dictionary }
          guard next.name == "key", !next.isEnd else { return nil }
          let key: String
          if next.isEmpty {
            key = ""
          } else {
            guard let text = text(until: "key") else { return nil }
            key = text
          }
          guard let item = value() else { return nil }
          dictionary[key] = item
        }
      case "array":
        var array: [Any] = []
        while true {
          skipSpace()
          if matches("</array>") {
            index += "</array>".utf8.count
            return array
          }
          guard let item = value() else { return nil }
          array.append(item)
        }
      case "string": return text(until: "string")
      case "integer":
        guard let text = text(until: "integer") else { return nil }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if let integer = Int(trimmed) { return integer }
        if let unsigned = UInt64(trimmed) { return NSNumber(value: unsigned) }
        return nil
      case "real":
        guard let text = text(until: "real") else { return nil }
        return Double(text.trimmingCharacters(in: .whitespacesAndNewlines))
      case "date":
        guard let text = text(until: "date") else { return nil }
        return ISO8601DateFormatter().date(from: text.trimmingCharacters(in: .whitespaces))
      case "data":
        guard let raw = content(until: "data") else { return nil }
        return Data(base64Encoded: Data(raw), options: .ignoreUnknownCharacters)
      case "true":
        return content(until: "true") != nil ? true : nil
      case "false":
        return content(until: "false") != nil ? false : nil
      default: return nil
      }
    }

    static func decodeEntities(_ text: String) -> String? {
      var result = ""
      var rest = Substring(text)
      while let ampersand = rest.firstIndex(of: "&") {
        result += rest[..<ampersand]
        guard let semicolon = rest[ampersand...].firstIndex(of: ";") else { return nil }
        let entity = rest[rest.index(after: ampersand)..<semicolon]
        switch entity {
        case "lt": result += "<"
        case "gt": result += ">"
        case "amp": result += "&"
        case "quot": result += "\""
        case "apos": result += "'"
        default:
          let code: UInt32?
          if entity.hasPrefix("#x") || entity.hasPrefix("#X") {
            code = UInt32(entity.dropFirst(2), radix: 16)
          } else if entity.hasPrefix("#") {
            code = UInt32(entity.dropFirst())
          } else {
            code = nil
          }
          guard let code, let scalar = Unicode.Scalar(code) else { return nil }
          result.unicodeScalars.append(scalar)
        }
        rest = rest[rest.index(after: semicolon)...]
      }
      return result + rest
    }
  }
}
