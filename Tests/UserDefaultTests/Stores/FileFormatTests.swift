import Foundation
import Testing

@testable import PropertyListCodec
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

  @Test("A null and a UID in a binary file survive the store's rewrite")
  func nullsAndUIDsSurvive() throws {
    let directory = TemporaryDirectory()
    // { "n": null, "u": UID(7), "s": "kept" }
    let data = PropertyListBinaryReaderTests.document(objects: [
      [0xD3, 1, 2, 3, 4, 5, 6], [0x51, 0x6E], [0x51, 0x75], [0x51, 0x73], [0x00], [0x80, 0x07],
      [0x54, 0x6B, 0x65, 0x70, 0x74],
    ])
    try data.write(to: URL(fileURLWithPath: directory.path + "/archive.plist"))
    let store = try PreferencesStore(suiteName: "archive", directory: directory.path)
    #expect("\(store.object(forKey: "u") ?? "none")" == "UID(7)")
    store.set(1, forKey: "added")
    try store.flush()
    let written = try #require(
      FileManager.default.contents(atPath: directory.path + "/archive.plist"))
    let values = try #require(written.withUnsafeBytes(PropertyListBinaryReader.storedObjects))
    #expect(
      values.mapValues { "\($0.object)" } == [
        "n": "null", "u": "UID(7)", "s": "kept", "added": "1",
      ])
  }

  @Test("The store rewrites an XML file as XML, makes new files binary, or XML when asked")
  func storeKeepsXML() throws {
    let directory = TemporaryDirectory()
    try PropertyListSerialization.data(fromPropertyList: ["a": 1], format: .xml, options: 0)
      .write(to: URL(fileURLWithPath: directory.path + "/xml.plist"))
    try Self.binaryFile(at: directory.path + "/binary.plist")
    try FileManager.default.copyItem(
      atPath: directory.path + "/xml.plist", toPath: directory.path + "/xml-asked-binary.plist")
    // The suite, the format asked for, the format of its file after a flush.
    let cases: [(String, PreferencesFileFormat?, PropertyListSerialization.PropertyListFormat)] =
      [
        ("xml", nil, .xml), ("xml-asked-binary", .binary, .xml), ("binary", .xml, .binary),
        ("new", nil, .binary), ("new-xml", .xml, .xml),
      ]
    for (suite, asked, expected) in cases {
      let store = try PreferencesStore(suiteName: suite, directory: directory.path, format: asked)
      store.set(2, forKey: "b")
      try store.flush()
      let format = try Self.contents(at: directory.path + "/\(suite).plist").format
      #expect(format == expected, "\(suite)")
    }
  }

  @Test("A typed Date is stored as a date, with its fraction of a second in a binary file")
  func typedDateIsADate() throws {
    let directory = TemporaryDirectory()
    let key = UserDefaults.Key<Date>("installDate", default: .distantPast)
    let when = Date(timeIntervalSinceReferenceDate: 773_323_669.081678)
    let store = try PreferencesStore(suiteName: "dates", directory: directory.path)
    store[key] = when
    #expect(store.object(forKey: "installDate") as? Date == when)
    try store.flush()
    let values = try Self.contents(at: directory.path + "/dates.plist").values
    #expect(values["installDate"] as? Date == when)
    // A date an earlier version stored as seconds since 2001 still reads.
    store.set(12.5, forKey: "installDate")
    #expect(store[key] == Date(timeIntervalSinceReferenceDate: 12.5))
  }

  // .linuxFiles: the reader finds the file through XDG_CONFIG_HOME; on a Mac cfprefsd would
  // read the real ~/Library/Preferences.
  @Test(
    "Plain Foundation, in a process that links no library code, reads a binary file", .linuxFiles)
  func plainFoundationReadsBinaryFiles() throws {
    let directory = TemporaryDirectory()
    try Self.binaryFile(at: directory.path + "/plain.plist")
    let source = directory.path + "/reader.swift"
    try Data(
      """
      import Foundation
      let defaults = UserDefaults(suiteName: "plain")!
      let date = defaults.object(forKey: "SULastCheckTime") as? Date
      print(defaults.string(forKey: "Name") ?? "nil", defaults.integer(forKey: "Count"),
        date?.timeIntervalSinceReferenceDate ?? 0, (defaults.object(forKey: "Y Origin") as? Double)?.sign == .minus)
      """.utf8
    ).write(to: URL(fileURLWithPath: source))
    let compile = Process()
    compile.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    compile.arguments = ["swiftc", source, "-o", directory.path + "/reader"]
    try compile.run()
    compile.waitUntilExit()
    try #require(compile.terminationStatus == 0, "swiftc failed")
    let reader = Process()
    reader.executableURL = URL(fileURLWithPath: directory.path + "/reader")
    reader.environment = ["XDG_CONFIG_HOME": directory.path, "HOME": directory.path]
    let output = Pipe()
    reader.standardOutput = output
    try reader.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    reader.waitUntilExit()
    #expect(text == "kept 3 773323669.081678 true\n")
  }

  @Test("The default path's saver rewrites a binary file as binary", .linuxFiles)
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

  @Test("-0.0 is stored as a real in both formats; the string earlier versions wrote reads")
  func negativeZeroIsAReal() throws {
    let directory = TemporaryDirectory()
    let key = UserDefaults.Key<Double>("origin", default: 1)
    for format in [PreferencesFileFormat.binary, .xml] {
      let suite = "zero-\(format)"
      let store = try PreferencesStore(suiteName: suite, directory: directory.path, format: format)
      store[key] = 0.0
      try store.flush()
      store[key] = -0.0  // -0.0 == 0.0, yet it is a change of the stored value
      try store.flush()
      #expect((store.object(forKey: "origin") as? Double)?.sign == .minus)
      let (written, values) = try Self.contents(at: directory.path + "/\(suite).plist")
      #expect(written == (format == .binary ? .binary : .xml))
      #expect((values["origin"] as? Double)?.sign == .minus, "\(format)")
      store.set("-0.0", forKey: "origin")  // as an earlier version stored it
      #expect(store[key].sign == .minus && store[key] == 0)
    }
  }

  @Test(
    "The default path's saver keeps an XML file XML: a date with a fraction is stored as its seconds",
    .linuxFiles)
  func saverKeepsXMLForADate() throws {
    let directory = TemporaryDirectory()
    let suite = "xmlsuite"
    try PropertyListSerialization.data(
      fromPropertyList: ["kept": "yes"], format: .xml, options: 0
    ).write(to: URL(fileURLWithPath: directory.path + "/\(suite).plist"))
    // The helper's samples, written through typed keys on a Foundation instance, include a
    // date with a fraction of a second; the library's saver writes them at exit. Foundation's
    // own synchronize() would write XML too, so the date is stored as its seconds.
    let result = try ChildProcess.run(
      "UserDefaultTestHelper", ["write", suite],
      environment: ["XDG_CONFIG_HOME": directory.path, "HOME": directory.path])
    #expect(result.status == 0, "\(result.error)")
    let (format, values) = try Self.contents(at: directory.path + "/\(suite).plist")
    #expect(format == .xml)
    #expect(values["kept"] as? String == "yes")
    #expect(values["date"] as? Double == 123_456_789.123_456)
    #expect(!result.error.contains("[changedFormat]"), "\(result.error)")
  }

}
