import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes a dictionary of property-list objects as an XML property list, in the layout
/// Foundation writes (tab indentation, keys sorted, dates to the second).
///
/// Not `PropertyListSerialization`, which on Linux bridges every value to an `NSObject`
/// and dominated a flush (see the benchmark). Anything XML cannot hold exactly (a control
/// character, a fraction of a second, a null or a UID) or an unknown type returns `nil`:
/// ``PropertyListFileWriter`` then writes binary.
package struct PropertyListXMLWriter {
  private var bytes: [UInt8] = []

  /// The XML form of `values`, or `nil` when it must be left to Foundation.
  ///
  /// - Parameter values: Property-list objects.
  /// - Returns: The document's bytes, or `nil` for a value this writer is not sure to
  ///   write exactly. Cost: linear in the size of the values, plus sorting the keys.
  ///
  ///     let data = PropertyListXMLWriter.data(for: ["volume": 7])
  package static func data(for values: [String: Any]) -> Data? {
    document(count: values.count) { writer in
      writer.write(dictionary: values, depth: 0) { $0.write($1, depth: $2) }
    }
  }

  /// The XML form of `values` as the store holds them, as ``data(for:)-([String:Any])``
  /// writes it: the store's scalars are written without a look at their type.
  ///
  /// - Parameter values: The store's objects.
  /// - Returns: The document's bytes, or `nil` when it must be left to Foundation.
  package static func data(for values: [String: StoredObject]) -> Data? {
    document(count: values.count) { writer in
      writer.write(dictionary: values, depth: 0) { $0.write(stored: $1, depth: $2) }
    }
  }

  private static func document(
    count: Int, root: (inout PropertyListXMLWriter) -> Bool
  ) -> Data? {
    var writer = PropertyListXMLWriter()
    writer.bytes.reserveCapacity(64 + count * 48)
    writer.append(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
      <plist version="1.0">

      """)
    guard root(&writer) else { return nil }
    writer.append("</plist>\n")
    return Data(writer.bytes)
  }

  private mutating func append(_ text: String) {
    bytes.append(contentsOf: text.utf8)
  }

  private mutating func indent(_ depth: Int) {
    bytes.append(contentsOf: repeatElement(UInt8(ascii: "\t"), count: depth))
  }

  private mutating func element(_ name: String, _ content: String, depth: Int) {
    indent(depth)
    append("<\(name)>")
    append(content)
    append("</\(name)>\n")
  }

  /// Appends `text` with the three characters XML reserves escaped; `false` for a
  /// character no XML 1.0 document can hold, escaped or not: a control character other
  /// than tab, line feed and carriage return, U+FFFE or U+FFFF.
  private mutating func escaped(_ text: String) -> Bool {
    var previous: (UInt8, UInt8) = (0, 0)
    for byte in text.utf8 {
      switch byte {
      case 0x09, 0x0A, 0x0D: bytes.append(byte)
      case 0..<0x20: return false
      case UInt8(ascii: "&"): append("&amp;")
      case UInt8(ascii: "<"): append("&lt;")
      case UInt8(ascii: ">"): append("&gt;")
      case 0xBE...0xBF where previous == (0xEF, 0xBF): return false  // U+FFFE, U+FFFF
      default: bytes.append(byte)
      }
      previous = (previous.1, byte)
    }
    return true
  }

  private mutating func write<Element>(
    dictionary: [String: Element], depth: Int,
    element: (inout PropertyListXMLWriter, Element, Int) -> Bool
  ) -> Bool {
    indent(depth)
    if dictionary.isEmpty {
      append("<dict/>\n")
      return true
    }
    append("<dict>\n")
    for key in dictionary.keys.sorted() {
      indent(depth + 1)
      append("<key>")
      guard escaped(key) else { return false }
      append("</key>\n")
      guard element(&self, dictionary[key]!, depth + 1) else { return false }
    }
    indent(depth)
    append("</dict>\n")
    return true
  }

  /// Native Swift scalars are written without a cast to `NSNumber`, which would box each.
  private mutating func write(_ value: Any, depth: Int) -> Bool {
    write(stored: StoredObject(value), depth: depth)
  }

  private mutating func write(stored value: StoredObject, depth: Int) -> Bool {
    switch value {
    case .int(let integer): element("integer", String(integer), depth: depth)
    case .double(let real): element("real", Self.format(real), depth: depth)
    case .bool(let bool):
      indent(depth)
      append(bool ? "<true/>\n" : "<false/>\n")
    case .string(let string): return write(string: string, depth: depth)
    case .other(let object): return write(other: object, depth: depth)
    }
    return true
  }

  private mutating func write(string: String, depth: Int) -> Bool {
    indent(depth)
    append("<string>")
    guard escaped(string) else { return false }
    append("</string>\n")
    return true
  }

  private mutating func write(other value: Any, depth: Int) -> Bool {
    switch value {
    case let string as String:  // an NSString
      return write(string: string, depth: depth)
    case let number as NSNumber:
      write(number: number, depth: depth)
    case let data as Data:
      indent(depth)
      append("<data>\n")
      indent(depth)
      append(data.base64EncodedString())
      append("\n")
      indent(depth)
      append("</data>\n")
    case let date as Date:
      // XML dates are whole seconds: a fraction, or a date beyond the writable range,
      // would be changed by writing it, so it is left to the binary writer.
      let seconds = date.timeIntervalSince1970
      guard seconds.rounded(.down) == seconds, Self.writableSeconds.contains(seconds) else {
        return false
      }
      element("date", Self.format(date), depth: depth)
    case let array as [Any]:
      indent(depth)
      if array.isEmpty {
        append("<array/>\n")
        return true
      }
      append("<array>\n")
      for element in array {
        guard write(element, depth: depth + 1) else { return false }
      }
      indent(depth)
      append("</array>\n")
    case let dictionary as [String: Any]:
      return write(dictionary: dictionary, depth: depth, element: { $0.write($1, depth: $2) })
    default:
      return false
    }
    return true
  }

  /// Told apart as Foundation does: by the number's stored type, not its value.
  private mutating func write(number: NSNumber, depth: Int) {
    // Bool and Foundation's boolean objects report "c" (a C char).
    if UInt8(bitPattern: number.objCType.pointee) == UInt8(ascii: "c") {
      indent(depth)
      append(number.boolValue ? "<true/>\n" : "<false/>\n")
      return
    }
    switch UInt8(bitPattern: number.objCType.pointee) {
    case UInt8(ascii: "d"), UInt8(ascii: "f"):
      element("real", Self.format(number.doubleValue), depth: depth)
    case UInt8(ascii: "Q"), UInt8(ascii: "L"), UInt8(ascii: "I"):
      element("integer", String(number.uint64Value), depth: depth)
    default:
      element("integer", String(number.int64Value), depth: depth)
    }
  }

  private static func format(_ real: Double) -> String {
    if real.isInfinite { return real < 0 ? "-infinity" : "+infinity" }
    return real.description  // shortest text that reads back as the same Double; "nan"
  }

  /// The dates XML text can spell: the year fits `tm_year`'s Int32, and the seconds fit
  /// `gmtime_r`'s `time_t` (32 bits on arm64_32: 1901 to 2038 there; a later date makes
  /// the file binary, where a plain conversion trapped).
  static let writableSeconds = max(-6.7e16, Double(time_t.min))...min(6.7e16, Double(time_t.max))

  /// `yyyy-MM-ddTHH:mm:ssZ` in UTC (what Foundation writes), for a date of whole seconds
  /// within ``writableSeconds``.
  private static func format(_ date: Date) -> String {
    var parts = tm()
    guard var seconds = time_t(exactly: date.timeIntervalSince1970),
      gmtime_r(&seconds, &parts) != nil
    else { return "1970-01-01T00:00:00Z" }
    func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
    let year = Int(parts.tm_year) + 1900
    var digits = String(year.magnitude)
    while digits.count < 4 { digits = "0" + digits }
    return
      "\(year < 0 ? "-" : "")\(digits)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
  }
}
