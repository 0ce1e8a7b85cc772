import Foundation
import Testing

@testable import PropertyListCodec
@testable import UserDefault

/// The binary reader, against Foundation's reader of the same bytes.
@Suite("The binary property-list reader")
struct PropertyListBinaryReaderTests {
  /// Foundation's values of `data`, and the reader's, which must be equal type for type.
  private func expectSameAsFoundation(_ data: Data, _ label: String) throws {
    let read = try #require(
      data.withUnsafeBytes(PropertyListBinaryReader.storedObjects), "\(label): declined")
    let foundation = try #require(
      try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
    #expect(read.count == foundation.count, "\(label)")
    for (key, value) in foundation {
      let mine = try #require(read[key], "\(label): \(key) missing")
      #expect(PropertyListKind(of: mine.object) == PropertyListKind(of: value), "\(label): \(key)")
      #expect(PropertyListEquality.isEqual(mine.object, value), "\(label): \(key)")
    }
  }

  @Test("It reads what the library's binary writer writes, every value as Foundation does")
  func readsTheWritersOutput() throws {
    let data = try #require(
      PropertyListBinaryWriter.data(for: PropertyListBinaryWriterTests.sample))
    try expectSameAsFoundation(data, "writer")
    let read = try #require(data.withUnsafeBytes(PropertyListBinaryReader.storedObjects))
    let date = try #require(read["fractional date"]?.object as? Date)
    #expect(date.timeIntervalSinceReferenceDate == 773_323_669.081678)
    #expect((read["negative zero"]?.object as? Double)?.sign == .minus)
    #expect(read["unsigned maximum"]?.object as? UInt64 == UInt64.max)
  }

  @Test("It reads what Foundation's binary writer writes")
  func readsFoundationsOutput() throws {
    let data = try PropertyListSerialization.data(
      fromPropertyList: FaultCorpus.sample, format: .binary, options: 0)
    try expectSameAsFoundation(data, "Foundation")
  }

  @Test("Every byte of a valid file flipped, and every truncation: never a crash")
  func damagedInputIsDeclinedOrRead() throws {
    let data = try #require(PropertyListBinaryWriter.data(for: ["a": [1, "two", 3.5], "b": true]))
    var declined = 0
    for index in data.indices {
      for flip: UInt8 in [0x01, 0x80, 0xFF] {
        var damaged = data
        damaged[index] ^= flip
        if damaged.withUnsafeBytes(PropertyListBinaryReader.storedObjects) == nil { declined += 1 }
      }
      if data.prefix(index).withUnsafeBytes(PropertyListBinaryReader.storedObjects) == nil {
        declined += 1
      }
    }
    #expect(declined > 0)
  }

  @Test("A null and a UID are kept as opaque values, and written back as they were")
  func keepsNullsAndUIDs() throws {
    // { "n": null, "u": UID(300) }
    let data = Self.document(objects: [
      [0xD2, 1, 2, 3, 4], [0x51, 0x6E], [0x51, 0x75], [0x00], [0x81, 0x01, 0x2C],
    ])
    let read = try #require(data.withUnsafeBytes(PropertyListBinaryReader.storedObjects))
    #expect(read["n"]?.object as? PropertyListOpaque == PropertyListOpaque(value: .null))
    #expect(read["u"]?.object as? PropertyListOpaque == PropertyListOpaque(value: .uid(300)))
    let written = try #require(PropertyListBinaryWriter.data(for: read))
    let again = try #require(written.withUnsafeBytes(PropertyListBinaryReader.storedObjects))
    #expect(again.mapValues { "\($0.object)" } == ["n": "null", "u": "UID(300)"])
    #expect(PropertyListXMLWriter.data(for: read) == nil, "XML cannot hold them")
    // Foundation still reads the file the writer made.
    #expect((try? PropertyListSerialization.propertyList(from: written, format: nil)) != nil)
  }

  @Test("A UID above UInt32.max is left to Foundation, which refuses the file")
  func leavesLargeUIDsToFoundation() {
    // { "u": UID } with the UID's marker and bytes. A flipped byte that turned a real's
    // marker (0x23) into 0x85 made the 6-byte one; the store read it, wrote it back as 8
    // bytes, and Foundation read neither file.
    let uids: [(bytes: [UInt8], isRead: Bool)] = [
      ([0x80, 7], true), ([0x81, 1, 0x2C], true), ([0x83, 0xFF, 0xFF, 0xFF, 0xFF], true),
      ([0x84, 0, 0, 0, 0, 1], true), ([0x87, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF], true),
      ([0x87, 0, 0, 0, 1, 0, 0, 0, 0], false), ([0x85, 0x3F, 0xE8, 0, 0, 0, 0], false),
    ]
    for uid in uids {
      let data = Self.document(objects: [[0xD1, 1, 2], [0x51, 0x75], uid.bytes])
      let read = data.withUnsafeBytes(PropertyListBinaryReader.storedObjects)
      let foundation = try? PropertyListSerialization.propertyList(from: data, format: nil)
      #expect((read != nil) == uid.isRead, "\(uid.bytes)")
      #expect((foundation != nil) == uid.isRead, "\(uid.bytes): Foundation's rule moved")
    }
  }

  @Test("What it is not sure of is left to Foundation: a cycle, a key twice, a set")
  func declinesWhatItDoesNotKnow() {
    // An array that holds itself; a set (0xC1).
    let set = Self.document(objects: [[0xD1, 1, 2], [0x51, 0x73], [0xC1, 1]])
    let cycle = Self.document(objects: [[0xD1, 1, 2], [0x51, 0x63], [0xA1, 2]])
    // { "k": 1, "k": "x" }: a flipped byte in the fault corpus made one (#282); Foundation
    // keeps the first value, python3's plistlib the last.
    let duplicate = Self.document(objects: [
      [0xD2, 1, 1, 2, 3], [0x51, 0x6B], [0x10, 0x01], [0x51, 0x78],
    ])
    for data in [set, cycle, duplicate] {
      #expect(data.withUnsafeBytes(PropertyListBinaryReader.storedObjects) == nil)
    }
  }

  @Test("A 4-byte real, as Apple's writer makes for a Float, reads as the Double it is")
  func readsFourByteReals() throws {
    // { "f": 521.0 as a 4-byte real }
    let data = Self.document(objects: [
      [0xD1, 1, 2], [0x51, 0x66], [0x22, 0x44, 0x02, 0x40, 0x00],
    ])
    let read = try #require(data.withUnsafeBytes(PropertyListBinaryReader.storedObjects))
    #expect(read["f"]?.object as? Double == 521.0)
    let foundation = try PropertyListSerialization.propertyList(from: data, format: nil)
    #expect(((foundation as? [String: Any])?["f"] as? NSNumber)?.doubleValue == 521.0)
  }

  /// A `bplist00` document of `objects` (already encoded, one-byte references), the
  /// first the root.
  static func document(objects: [[UInt8]]) -> Data {
    var bytes = Array("bplist00".utf8)
    var offsets: [UInt8] = []
    for object in objects {
      offsets.append(UInt8(bytes.count))
      bytes += object
    }
    let table = bytes.count
    bytes += offsets
    bytes += [0, 0, 0, 0, 0, 0, 1, 1]
    bytes += [0, 0, 0, 0, 0, 0, 0, UInt8(objects.count)]
    bytes += [0, 0, 0, 0, 0, 0, 0, 0]
    bytes += [0, 0, 0, 0, 0, 0, 0, UInt8(table)]
    return Data(bytes)
  }
}
