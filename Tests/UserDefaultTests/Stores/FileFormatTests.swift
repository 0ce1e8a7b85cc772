import Foundation
import Testing

@testable import UserDefault

/// A file keeps the format it came in: binary stays binary (with what XML cannot hold),
/// XML stays XML, on every writer.
@Suite("A preferences file keeps its format")
struct FileFormatTests {
  /// What a binary file from a Mac holds that XML cannot: a date's fraction, -0.0,
  /// control characters, an unsigned integer above Int64.max.
  static var macValues: [String: Any] {
    [
      "SULastCheckTime": Date(timeIntervalSinceReferenceDate: 773_323_669.081678),
      "Y Origin": -0.0, "TimeZone": "\u{10}\u{1D}zone", "Big": NSNumber(value: UInt64.max),
      "Name": "kept", "Count": 3,
    ]
  }

  static func binaryFile(at path: String) throws {
    try PropertyListSerialization.data(fromPropertyList: macValues, format: .binary, options: 0)
      .write(to: URL(fileURLWithPath: path))
  }

  /// The file's format and values, read by Foundation.
  static func contents(at path: String) throws -> (
    format: PropertyListSerialization.PropertyListFormat, values: [String: Any]
  ) {
    let data = try #require(FileManager.default.contents(atPath: path))
    var format = PropertyListSerialization.PropertyListFormat.xml
    let values = try #require(
      try PropertyListSerialization.propertyList(from: data, format: &format) as? [String: Any])
    return (format, values)
  }

  static func expectKept(_ values: [String: Any]) {
    for (key, value) in macValues {
      #expect(values[key].map { PropertyListEquality.isEqual($0, value) } == true, "\(key)")
    }
    #expect((values["Y Origin"] as? Double)?.sign == .minus)
  }

  @Test("The store rewrites a binary file as binary, every value kept exactly")
  func storeKeepsBinary() throws {
    let directory = TemporaryDirectory()
    try Self.binaryFile(at: directory.path + "/mac.plist")
    let store = try PreferencesStore(suiteName: "mac", directory: directory.path)
    store.set("added", forKey: "New")
    try store.flush()
    store.set("again", forKey: "New")  // the file is known now: written without a read
    try store.flush()
    let (format, values) = try Self.contents(at: directory.path + "/mac.plist")
    #expect(format == .binary)
    Self.expectKept(values)
    #expect(values["New"] as? String == "again")
  }

  @Test("The store rewrites an XML file as XML, and makes new files as XML")
  func storeKeepsXML() throws {
    let directory = TemporaryDirectory()
    try PropertyListSerialization.data(fromPropertyList: ["a": 1], format: .xml, options: 0)
      .write(to: URL(fileURLWithPath: directory.path + "/xml.plist"))
    for suite in ["xml", "new"] {
      let store = try PreferencesStore(suiteName: suite, directory: directory.path)
      store.set(2, forKey: "b")
      try store.flush()
      #expect(try Self.contents(at: directory.path + "/\(suite).plist").format == .xml)
    }
  }

  @Test("The default path's saver rewrites a binary file as binary")
  func saverKeepsBinary() throws {
    let directory = TemporaryDirectory()
    try Self.binaryFile(at: directory.path + "/macsuite.plist")
    let result = try ChildProcess.run(
      "UserDefaultTestHelper", ["write-sequence", "macsuite", "Count=4", "save"],
      environment: ["XDG_CONFIG_HOME": directory.path, "HOME": directory.path])
    #expect(result.output == "saved true\n", "\(result.error)")
    let (format, values) = try Self.contents(at: directory.path + "/macsuite.plist")
    #expect(format == .binary)
    #expect(values["Count"] as? Int == 4)
    for key in ["SULastCheckTime", "Y Origin", "TimeZone", "Big", "Name"] {
      #expect(
        values[key].map { PropertyListEquality.isEqual($0, Self.macValues[key]!) } == true,
        "\(key)")
    }
  }
}
