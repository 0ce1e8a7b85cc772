import Foundation
import Testing

@testable import PropertyListCodec
@testable import UserDefault

@Suite("The store's XML property-list writer")
struct PropertyListXMLWriterTests {
  static var values: [String: Any] {
    [
      "true": true, "false": false, "int": Int.max, "negative": Int.min, "uint64": UInt64.max,
      "double": 0.1 + 0.2, "negativeZero": -0.0, "tiny": Double.leastNonzeroMagnitude,
      "huge": 1.7976931348623157e308,
      "infinity": Double.infinity, "minusInfinity": -Double.infinity, "float": Float(0.1),
      "string": "a & b < c > d \"quoted\" 'single' é 😀 \t\r\n\u{7F}\u{FFFD}\u{FEFF}", "empty": "",
      "data": Data([0, 1, 2, 254, 255]), "emptyData": Data(),
      "date": Date(timeIntervalSinceReferenceDate: 123_456_789),
      "oldDate": Date(timeIntervalSince1970: -86_400 * 365 * 100),
      "array": [1, "two", 3.5, [true], ["k": "v"]] as [Any], "emptyArray": [Any](),
      "dictionary": ["nested": ["deeper": [1, 2]], "<odd key>": 1] as [String: Any],
      "emptyDictionary": [String: Any](),
      "nsNumberBool": NSNumber(value: true), "nsNumberInt": NSNumber(value: 7),
      "nsNumberDouble": NSNumber(value: 2.5),
    ]
  }

  @Test func everyValueParsesBackEqualWithFoundation() throws {
    let data = try #require(PropertyListXMLWriter.data(for: Self.values))
    let parsed = try PropertyListSerialization.propertyList(from: data, format: nil)
    let dictionary = try #require(parsed as? [String: Any])
    #expect(Set(dictionary.keys) == Set(Self.values.keys))
    for (key, value) in Self.values {
      #expect(PropertyListEquality.isEqual(dictionary[key]!, value), "\(key)")
    }
    // Kinds are kept: a Boolean stays Boolean, an integer stays an integer.
    #expect(dictionary["true"] is Bool)
    #expect(String(cString: (dictionary["int"] as! NSNumber).objCType) != "d")
    #expect(String(cString: (dictionary["double"] as! NSNumber).objCType) == "d")
  }

  @Test func layoutMatchesFoundationForSimpleValues() throws {
    let values: [String: Any] = ["b": true, "i": 5, "r": 1.5, "s": "x", "a": [1, "y"] as [Any]]
    let ours = try #require(PropertyListXMLWriter.data(for: values))
    let foundation = try PropertyListSerialization.data(
      fromPropertyList: values, format: .xml, options: 0)
    #expect(String(decoding: ours, as: UTF8.self) == String(decoding: foundation, as: UTF8.self))
  }

  /// What XML 1.0 cannot hold, escaped or not, and what XML dates cannot spell.
  static var valuesXMLCannotHold: [String: Any] {
    [
      "nul": "a\u{0}b", "control": "a\u{1}b", "unitSeparator": "\u{1F}",
      "fffe": "a\u{FFFE}", "ffff": "\u{FFFF}b", "fraction": Date(timeIntervalSince1970: 1.5),
      "nested": ["deep": ["x\u{10}"]] as [String: Any],
      "null": PropertyListOpaque(value: .null), "uid": PropertyListOpaque(value: .uid(3)),
    ]
  }

  @Test func valuesXMLCannotHoldAreDeclined() {
    for (key, value) in Self.valuesXMLCannotHold {
      #expect(PropertyListXMLWriter.data(for: [key: value, "plain": 1]) == nil, "\(key)")
    }
    #expect(PropertyListXMLWriter.data(for: ["a\u{0}": 1]) == nil)
    #expect(PropertyListXMLWriter.data(for: ["key\u{1B}": 1]) == nil)
    // Tab, line feed and carriage return are XML's own; U+FFFD is an ordinary character.
    #expect(PropertyListXMLWriter.data(for: ["s": "\t\n\r\u{FFFD}\u{EFBF}"]) != nil)
  }

  @Test("Asked for XML, the file writer writes binary when XML cannot hold a value, naming it")
  func fileWriterFallsBackToBinary() throws {
    var values = Self.valuesXMLCannotHold
    values["plain"] = 1
    let written = try #require(PropertyListFileWriter.data(for: values, format: .xml))
    #expect(written.format == .binary)
    #expect(written.keysXMLCannotHold == Self.valuesXMLCannotHold.keys.sorted())
    let read = try #require(
      written.data.withUnsafeBytes { PropertyListBinaryReader.storedObjects(in: $0) })
    for (key, value) in values {
      #expect(PropertyListEquality.isEqual(read[key]?.object ?? "missing", value), "\(key)")
    }
    let plain = try #require(PropertyListFileWriter.data(for: ["plain": 1], format: .xml))
    #expect(plain.format == .xml && plain.keysXMLCannotHold.isEmpty)
    #expect(plain.data.starts(with: Array("<?xml".utf8)))
  }

  @Test func storeFilesWrittenWithTheWriterAreReadByFoundation() throws {
    let directory = TemporaryDirectory()
    Diagnostics.installRecorder()
    let store = try PreferencesStore(suiteName: "writer", directory: directory.path)
    for (key, value) in Self.values { store.set(value, forKey: key) }
    try store.flush()
    let data = try #require(FileManager.default.contents(atPath: directory.path + "/writer.plist"))
    let parsed = try #require(
      try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
    for (key, value) in Self.values {
      #expect(PropertyListEquality.isEqual(parsed[key] ?? "missing", value), "\(key)")
    }
  }

  /// Dates no XML text can spell (a damaged file or a raw `set` can hold them): the writer
  /// once trapped converting them to whole seconds, which crashed the release-built helper
  /// of the fault corpus on a binary file with a flipped byte.
  static let extremeDates: [Double] = [
    1e300, -1e300, .nan, .infinity, -.infinity, 9.3e18, -9.3e18, 6.8e16, -6.8e16,
  ]

  @Test(
    "A date beyond about 2.1 billion years, or not a number, is declined by XML, kept by binary")
  func extremeDatesAreKeptAsBinary() throws {
    for interval in Self.extremeDates {
      let values: [String: Any] = ["d": Date(timeIntervalSince1970: interval), "k": 1]
      #expect(PropertyListXMLWriter.data(for: values) == nil, "\(interval)")
      let written = try #require(PropertyListFileWriter.data(for: values, format: .xml))
      #expect(written.format == .binary && written.keysXMLCannotHold == ["d"])
      let parsed = try #require(
        try PropertyListSerialization.propertyList(from: written.data, format: nil)
          as? [String: Any], "\(interval)")
      let date = try #require(parsed["d"] as? Date, "\(interval)")
      #expect(
        date.timeIntervalSince1970.bitPattern == interval.bitPattern
          || (interval.isNaN && date.timeIntervalSince1970.isNaN), "\(interval)")
      #expect(parsed["k"] as? Int == 1)
    }
    let limit = PropertyListXMLWriter.writableSeconds.upperBound
    #expect(PropertyListXMLWriter.data(for: ["d": Date(timeIntervalSince1970: limit)]) != nil)
  }

  @Test func aStoreHoldingAnExtremeDateFlushesAndKeepsItsOtherValues() throws {
    let directory = TemporaryDirectory()
    Diagnostics.installRecorder()
    let store = try PreferencesStore(suiteName: "dates", directory: directory.path)
    for (index, interval) in Self.extremeDates.enumerated() {
      store.set(Date(timeIntervalSince1970: interval), forKey: "date.\(index)")
    }
    store.set("kept", forKey: "other")
    try store.flush()
    let reopened = try PropertyListFile.values(at: directory.path + "/dates.plist")
    #expect(reopened["other"] as? String == "kept")
    #expect(reopened.keys.filter { $0.hasPrefix("date.") }.count == Self.extremeDates.count)
  }
}
