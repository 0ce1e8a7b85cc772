import Foundation
import Testing

@testable import PropertyListCodec
@testable import UserDefault

/// The binary writer, checked against two readers nobody here wrote: Foundation's
/// `PropertyListSerialization` and python3's `plistlib`.
@Suite("The binary property-list writer")
struct PropertyListBinaryWriterTests {
  /// One value of every kind the writer writes, with the edges of each encoding.
  static var sample: [String: Any] {
    var many: [String: Any] = [:]
    // More than 255 objects, so that references take two bytes.
    for index in 0..<300 { many["key \(index)"] = index * 1_000 }
    return [
      "zero": 0, "byte": 255, "short": 65_535, "word": 4_294_967_295, "long": Int.max,
      "negative": -1, "minimum": Int.min,
      "unsigned maximum": NSNumber(value: UInt64.max),
      "unsigned above Int64.max": NSNumber(value: UInt64(Int64.max) + 1),
      "real": 0.1, "negative zero": -0.0, "infinity": Double.infinity,
      "negative infinity": -Double.infinity, "not a number": Double.nan,
      "yes": true, "no": false,
      "ascii": "plain", "long ascii": String(repeating: "x", count: 40), "empty": "",
      "unicode": "ünïcödé 🎉", "control characters": "a\u{10}b\u{1D}c\u{0}d",
      "data": Data([0, 1, 2, 255]), "empty data": Data(),
      "long data": Data((0..<300).map { UInt8($0 % 256) }),
      "fractional date": Date(timeIntervalSinceReferenceDate: 773_323_669.081678),
      "old date": Date(timeIntervalSince1970: -1_000_000_000.5),
      "array": [1, "two", 3.5, [true]] as [Any], "empty array": [Any](),
      "long array": Array(0..<20),
      "nested": ["a": ["b": ["c": "deep"]]], "empty dictionary": [String: Any](),
      "many": many,
    ]
  }

  @Test("Foundation reads back every value, type for type, reals by bit pattern")
  func foundationReadsEveryValue() throws {
    let data = try #require(PropertyListBinaryWriter.data(for: Self.sample))
    #expect(data.prefix(8) == Data("bplist00".utf8))
    var format = PropertyListSerialization.PropertyListFormat.xml
    let read = try PropertyListSerialization.propertyList(from: data, format: &format)
    #expect(format == .binary)
    let values = try #require(read as? [String: Any])
    #expect(values.count == Self.sample.count)
    for (key, value) in Self.sample {
      let found = try #require(values[key], "\(key) missing")
      #expect(PropertyListKind(of: found) == PropertyListKind(of: value), "\(key): \(found)")
      #expect(PropertyListEquality.isEqual(found, value), "\(key): \(found) != \(value)")
    }
    #expect((values["negative zero"] as? Double)?.sign == .minus)
    #expect((values["not a number"] as? Double)?.isNaN == true)
    #expect((values["unsigned maximum"] as? NSNumber)?.uint64Value == UInt64.max)
  }

  @Test("The store's own objects are written as the same document as their Any form")
  func storedObjectsWriteTheSameBytes() throws {
    let values: [String: Any] = ["i": 7, "d": 2.5, "b": true, "s": "text", "o": Data([9])]
    #expect(
      PropertyListBinaryWriter.data(for: values.mapValues(StoredObject.init))
        == PropertyListBinaryWriter.data(for: values))
  }

  /// The keys of the root dictionary, in the order the document lists them.
  private func rootKeyOrder(_ data: Data) throws -> [String] {
    let bytes = [UInt8](data)
    func number(at offset: Int, width: Int) -> Int {
      bytes[offset..<(offset + width)].reduce(0) { $0 << 8 | Int($1) }
    }
    let trailer = bytes.count - 32
    let (offsetWidth, referenceWidth) = (Int(bytes[trailer + 6]), Int(bytes[trailer + 7]))
    let (root, table) = (number(at: trailer + 16, width: 8), number(at: trailer + 24, width: 8))
    func offset(of object: Int) -> Int {
      number(at: table + object * offsetWidth, width: offsetWidth)
    }
    let rootOffset = offset(of: root)
    try #require(bytes[rootOffset] & 0xF0 == 0xD0)
    var count = Int(bytes[rootOffset] & 0x0F)
    var start = rootOffset + 1
    if count == 0x0F {
      let width = 1 << Int(bytes[rootOffset + 1] & 0x0F)
      count = number(at: rootOffset + 2, width: width)
      start = rootOffset + 2 + width
    }
    return (0..<count).map { index in
      let key = offset(of: number(at: start + index * referenceWidth, width: referenceWidth))
      let length = Int(bytes[key] & 0x0F)  // the test's keys are short
      if bytes[key] & 0xF0 == 0x50 {
        return String(decoding: bytes[(key + 1)..<(key + 1 + length)], as: UTF8.self)
      }
      let units = (0..<length).map {
        UInt16(bytes[key + 1 + 2 * $0]) << 8 | UInt16(bytes[key + 2 + 2 * $0])
      }
      return String(decoding: units, as: UTF16.self)
    }
  }

  @Test("Keys are written in the order of their UTF-8 bytes, the same for equal dictionaries")
  func keysAreInByteOrder() throws {
    // Prefixes of one another, keys longer than eight bytes that share their first eight,
    // upper case before lower, and non-ASCII keys, which sort after ASCII by their bytes.
    let keys = [
      "b", "a", "ab", "abcdefgh", "abcdefghi", "abcdefghij", "abcdefgh-2", "B", "Z", "_",
      "é", "e\u{301}z", "日本", "🎉", "z", "", "abcdefgg",
    ]
    let values = Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, $0 as Any) })
    let data = try #require(PropertyListBinaryWriter.data(for: values))
    let order = try rootKeyOrder(data)
    let expected = values.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    #expect(order == expected)
    #expect(order.first == "" && order.last == "🎉")
    // A dictionary built in another order writes the same bytes.
    var reversed: [String: Any] = [:]
    for key in keys.reversed() { reversed[key] = values[key] }
    #expect(PropertyListBinaryWriter.data(for: reversed) == data)
  }

  @Test("Non-ASCII keys and strings read back through Foundation and the library's reader")
  func nonASCIIRoundTrips() throws {
    let values: [String: Any] = [
      "ünïcödé": "välue", "日本語のキー": "文字列", "🎉": "🎉🎊", "plain": "naïve",
      "e\u{301}": "combining", "nested": ["ключ": ["значение", "ascii"] as [Any]],
      String(repeating: "ß", count: 20): String(repeating: "ü", count: 300),
    ]
    let data = try #require(PropertyListBinaryWriter.data(for: values))
    let foundation = try #require(
      try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
    let read = try #require(data.withUnsafeBytes(PropertyListBinaryReader.storedObjects))
    #expect(foundation.count == values.count && read.count == values.count)
    for (key, value) in values {
      let fromFoundation = try #require(foundation[key], "\(key) missing in Foundation's")
      let fromReader = try #require(read[key], "\(key) missing in the reader's")
      #expect(PropertyListEquality.isEqual(fromFoundation, value), "\(key)")
      #expect(PropertyListEquality.isEqual(fromReader.object, value), "\(key)")
    }
  }

  @Test("An object no property list holds makes the writer decline, not crash")
  func unknownObjectIsDeclined() {
    #expect(PropertyListBinaryWriter.data(for: ["url": URL(fileURLWithPath: "/")]) == nil)
    #expect(PropertyListBinaryWriter.data(for: ["nested": [["x": NSObject()]]]) == nil)
  }

  @Test("python3's plistlib reads back every value, type for type")
  func plistlibReadsEveryValue() throws {
    let directory = TemporaryDirectory()
    let path = directory.path + "/sample.plist"
    try #require(PropertyListBinaryWriter.data(for: Self.sample)).write(
      to: URL(fileURLWithPath: path))
    // Each top-level value as "key<TAB>type<TAB>canonical text"; reals by bit pattern,
    // dates as seconds since 2001 to the microsecond (plistlib's precision).
    let script = """
      import plistlib, struct, sys, datetime
      def canon(v):
          if isinstance(v, bool): return "bool", str(v).lower()
          if isinstance(v, int): return "integer", str(v)
          if isinstance(v, float): return "real", struct.pack(">d", v).hex()
          if isinstance(v, str): return "string", v.encode("unicode_escape").decode()
          if isinstance(v, bytes): return "data", v.hex()
          if isinstance(v, datetime.datetime):
              return "date", "%.6f" % (v - datetime.datetime(2001, 1, 1)).total_seconds()
          if isinstance(v, list): return "array", str(len(v))
          if isinstance(v, dict): return "dictionary", str(len(v))
          return "other", repr(v)
      with open(sys.argv[1], "rb") as f: d = plistlib.load(f)
      for k in sorted(d): print(k, *canon(d[k]), sep="\\t")
      """
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", script, path]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    let lines = Dictionary(
      uniqueKeysWithValues: text.split(separator: "\n").map { line in
        let parts = line.split(separator: "\t", maxSplits: 1)
        return (String(parts[0]), String(parts.count > 1 ? parts[1] : ""))
      })
    #expect(lines.count == Self.sample.count)
    func real(_ value: Double) -> String {
      "real\t"
        + withUnsafeBytes(of: value.bitPattern.bigEndian) { bytes in
          bytes.map { String(format: "%02x", $0) }.joined()
        }
    }
    let expected: [String: String] = [
      "zero": "integer\t0", "byte": "integer\t255", "short": "integer\t65535",
      "word": "integer\t4294967295", "long": "integer\t\(Int.max)", "negative": "integer\t-1",
      "minimum": "integer\t\(Int.min)", "unsigned maximum": "integer\t\(UInt64.max)",
      "unsigned above Int64.max": "integer\t\(UInt64(Int64.max) + 1)",
      "real": real(0.1), "negative zero": real(-0.0), "infinity": real(.infinity),
      "negative infinity": real(-.infinity), "yes": "bool\ttrue", "no": "bool\tfalse",
      "ascii": "string\tplain", "long ascii": "string\t" + String(repeating: "x", count: 40),
      "empty": "string\t", "unicode": "string\t\\xfcn\\xefc\\xf6d\\xe9 \\U0001f389",
      "control characters": "string\ta\\x10b\\x1dc\\x00d",
      "data": "data\t000102ff", "empty data": "data\t",
      "fractional date": "date\t773323669.081678", "array": "array\t4",
      "empty array": "array\t0", "long array": "array\t20", "nested": "dictionary\t1",
      "empty dictionary": "dictionary\t0", "many": "dictionary\t300",
    ]
    for (key, line) in expected { #expect(lines[key] == line, "\(key)") }
    #expect(lines["not a number"]?.hasPrefix("real\t7ff8") == true)
    #expect(lines["long data"]?.count == "data\t".count + 600)
    #expect(lines["old date"] == "date\t-1978307200.500000")
  }
}
