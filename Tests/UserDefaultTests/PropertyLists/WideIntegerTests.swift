import Foundation
import PropertyListCodec
import Testing

@testable import UserDefault

/// Integers beyond `Int32` (what an `Int` holds on arm64_32) and beyond `Int64`, through
/// every reader: the XML and binary readers, the index a cold open keeps, a store's file and
/// a Foundation instance. Each reads back exactly as the `Int64` or `UInt64` written.
@Suite struct WideIntegerTests {
  static let signed: [String: Int64] = [
    "int32.max+1": 2_147_483_648, "five.billion": 5_000_000_000,
    "minus.five.billion": -5_000_000_000, "int64.max": .max, "int64.min": .min,
  ]
  static let unsigned: [String: UInt64] = [
    "uint32.max+1": 4_294_967_296, "above.int64": UInt64(Int64.max) + 1, "uint64.max": .max,
  ]
  static let formats: [PropertyListSerialization.PropertyListFormat] = [.xml, .binary]

  /// The written values and 300 small fillers, so that both readers index the file.
  static func document(_ format: PropertyListSerialization.PropertyListFormat) throws -> Data {
    var values: [String: Any] = [:]
    for number in 0..<300 { values["filler.\(number)"] = number }
    for (name, value) in signed { values[name] = value }
    for (name, value) in unsigned { values[name] = value }
    return try PropertyListSerialization.data(fromPropertyList: values, format: format, options: 0)
  }

  /// A stored integer as text, whichever case holds it.
  static func text(_ object: StoredObject?) -> String {
    switch object {
    case .int(let value): "\(value)"
    case .other(let value as Int64): "\(value)"
    case .other(let value as UInt64): "\(value)"
    default: "not an integer: \(String(describing: object))"
    }
  }

  static var expected: [String: String] {
    signed.mapValues { "\($0)" }.merging(unsigned.mapValues { "\($0)" }) { first, _ in first }
  }

  @Test(arguments: formats)
  func theReadersReadThemExactly(format: PropertyListSerialization.PropertyListFormat) throws {
    let data = try Self.document(format)
    let read = try #require(
      data.withUnsafeBytes {
        format == .xml
          ? PropertyListXMLReader.storedObjects(in: $0)
          : PropertyListBinaryReader.storedObjects(in: $0)
      })
    for (name, text) in Self.expected { #expect(Self.text(read[name]) == text, "\(name)") }
  }

  @Test(arguments: formats)
  func theIndexReadsThemExactly(format: PropertyListSerialization.PropertyListFormat) throws {
    let data = try Self.document(format)
    let index = try #require(
      data.withUnsafeBytes { bytes -> PropertyListIndex? in
        guard format == .xml else { return PropertyListBinaryReader.index(in: bytes) }
        guard case .indexed(let index) = PropertyListXMLReader.root(in: bytes) else { return nil }
        return index
      })
    for (name, text) in Self.expected {
      guard case .found(let object) = index.lookup(name) else {
        Issue.record("\(name): not found in the index")
        continue
      }
      #expect(Self.text(object) == text, "\(name)")
    }
  }

  @Test(arguments: formats)
  func aStoreReadsWritesAndRereadsThem(
    format: PropertyListSerialization.PropertyListFormat
  ) throws {
    let directory = TemporaryDirectory()
    let suite = "wide-\(format == .xml ? "xml" : "binary")"
    try Self.document(format).write(to: URL(fileURLWithPath: directory.path + "/\(suite).plist"))
    let store = try PreferencesStore(suiteName: suite, directory: directory.path)
    for (name, value) in Self.signed {
      #expect(store[UserDefaults.Key<Int64>(name, default: 0)] == value, "\(name)")
      store[UserDefaults.Key<Int64>(name + ".copy", default: 0)] = value
    }
    for (name, value) in Self.unsigned {
      #expect(store[UserDefaults.Key<UInt64>(name, default: 0)] == value, "\(name)")
      store[UserDefaults.Key<UInt64>(name + ".copy", default: 0)] = value
    }
    try store.flush()
    let reopened = try PreferencesStore(suiteName: suite, directory: directory.path)
    for (name, value) in Self.signed {
      #expect(reopened[UserDefaults.Key<Int64>(name + ".copy", default: 0)] == value, "\(name)")
    }
    for (name, value) in Self.unsigned {
      #expect(reopened[UserDefaults.Key<UInt64>(name + ".copy", default: 0)] == value, "\(name)")
    }
  }

  @Test func aFoundationInstanceReadsThemBack() throws {
    let defaults = try #require(UserDefaults(suiteName: uniqueKey()))
    for (name, value) in Self.signed {
      defaults[UserDefaults.Key<Int64>(name, default: 0)] = value
      #expect(defaults[UserDefaults.Key<Int64>(name, default: 0)] == value, "\(name)")
      defaults.removeObject(forKey: name)
    }
    for (name, value) in Self.unsigned {
      defaults[UserDefaults.Key<UInt64>(name, default: 0)] = value
      #expect(defaults[UserDefaults.Key<UInt64>(name, default: 0)] == value, "\(name)")
      defaults.removeObject(forKey: name)
    }
  }
}
