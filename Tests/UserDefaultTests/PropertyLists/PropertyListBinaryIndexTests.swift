import Foundation
import Testing

@testable import PropertyListCodec
@testable import UserDefault

/// The index a cold open of a binary file keeps instead of a dictionary: it must answer
/// exactly what the reader's dictionary answers, and accept no file the reader refuses.
@Suite("The binary property-list index")
struct PropertyListBinaryIndexTests {
  /// Checks that the index of `data`, when there is one, is the reader's dictionary: the
  /// same keys, each value of the same kind and equal, each found by a lookup.
  private func expectSameAsReader(_ data: Data, _ label: String) throws {
    guard let index = data.withUnsafeBytes(PropertyListBinaryReader.index) else { return }
    let read = try #require(
      data.withUnsafeBytes(PropertyListBinaryReader.storedObjects),
      "\(label): indexed, but the reader refuses it")
    let made = index.dictionary()
    #expect(made.count == read.count, "\(label)")
    #expect(index.count == read.count, "\(label)")
    for (key, value) in read {
      guard case .found(let found) = index.lookup(key) else {
        Issue.record("\(label): \(key) not found")
        continue
      }
      for object in [found, made[key]] {
        let object = try #require(object, "\(label): \(key) missing from the dictionary")
        #expect(PropertyListKind(of: object.object) == PropertyListKind(of: value.object))
        #expect(PropertyListEquality.isEqual(object.object, value.object), "\(label): \(key)")
      }
      // Names next to the key: a longer one, a shorter one, another case. A lookup that
      // matched on a prefix or a hash alone would find them.
      for near in [key + "x", String(key.dropLast()), key.uppercased(), key.lowercased()]
      where read[near] == nil {
        guard case .absent = index.lookup(near) else {
          Issue.record("\(label): \(near.debugDescription) found, or not answered")
          continue
        }
      }
    }
  }

  @Test("Every binary file of the corpus: the index is the reader's dictionary")
  func corpusFiles() throws {
    var binary = 0
    var indexed = 0
    for name in PreferenceFileCorpusTests.names {
      let data = try Data(contentsOf: PreferenceFileCorpusTests.folder.appendingPathComponent(name))
      guard data.starts(with: Array("bplist".utf8)) else { continue }
      binary += 1
      if data.withUnsafeBytes(PropertyListBinaryReader.index) != nil { indexed += 1 }
      try expectSameAsReader(data, name)
    }
    // 33 binary files, every key ASCII (plistlib): each one is indexed, none left to the
    // reader.
    #expect(binary == 33)
    #expect(indexed == binary)
  }

  @Test("Every byte of a valid file flipped, and every truncation: never more than the reader")
  func damagedInput() throws {
    let data = try #require(
      PropertyListBinaryWriter.data(for: ["a": [1, "two", 3.5], "b": true, "key": "value"]))
    try expectSameAsReader(data, "intact")
    #expect(data.withUnsafeBytes(PropertyListBinaryReader.index) != nil)
    for index in data.indices {
      for flip: UInt8 in [0x01, 0x80, 0xFF] {
        var damaged = data
        damaged[index] ^= flip
        try expectSameAsReader(damaged, "byte \(index) ^ \(flip)")
      }
      try expectSameAsReader(data.prefix(index), "first \(index) bytes")
    }
  }

  @Test("A file of large values: the index keeps the keys' bytes, and still answers")
  func largeValues() throws {
    let blob = Data(repeating: 0x5A, count: 100_000)
    let data = try #require(
      PropertyListBinaryWriter.data(for: ["blob": blob, "other blob": blob + [1], "n": 3]))
    try expectSameAsReader(data, "large values")
    let index = try #require(data.withUnsafeBytes(PropertyListBinaryReader.index))
    #expect(data.count > 200_000)
    #expect(index.heldBytes == "blob".utf8.count + "other blob".utf8.count + "n".utf8.count)
    guard case .found(let found) = index.lookup("other blob") else {
      Issue.record("\"other blob\" not found")
      return
    }
    #expect((found.object as? Data)?.count == 100_001)
  }

  @Test("An empty key is a key like any other")
  func emptyKey() throws {
    let data = try #require(PropertyListBinaryWriter.data(for: ["": 1, "a": 2]))
    try expectSameAsReader(data, "empty key")
    let index = try #require(data.withUnsafeBytes(PropertyListBinaryReader.index))
    guard case .found(let found) = index.lookup(""), found.object as? Int == 1 else {
      Issue.record("the empty key not found")
      return
    }
  }

  @Test("A key twice, a key that is not ASCII: no index (the reader decides)")
  func declines() throws {
    let document = PropertyListBinaryReaderTests.document
    let duplicate = document([[0xD2, 1, 1, 2, 3], [0x51, 0x6B], [0x10, 0x01], [0x51, 0x78]])
    #expect(duplicate.withUnsafeBytes(PropertyListBinaryReader.index) == nil)
    // { "é": 1 }, the key a UTF-16 string object.
    let accented = document([[0xD1, 1, 2], [0x61, 0x00, 0xE9], [0x10, 0x01]])
    #expect(accented.withUnsafeBytes(PropertyListBinaryReader.index) == nil)
    #expect(accented.withUnsafeBytes(PropertyListBinaryReader.storedObjects)?["é"] != nil)
  }

  @Test("A name that is not ASCII is answered as String's == answers")
  func namesThatAreNotASCII() throws {
    // { "K": 1 }. U+212A KELVIN SIGN is canonically equivalent to "K": a dictionary finds
    // it, so the values must too, which a comparison of bytes alone would not.
    let data = PropertyListBinaryReaderTests.document(objects: [
      [0xD1, 1, 2], [0x51, 0x4B], [0x10, 0x01],
    ])
    let index = try #require(data.withUnsafeBytes(PropertyListBinaryReader.index))
    guard case .unknown = index.lookup("\u{212A}") else {
      Issue.record("a name that is not ASCII was answered by bytes")
      return
    }
    guard case .absent = index.lookup("k") else {
      Issue.record("\"k\" found")
      return
    }
    let values = StoredValues(index)
    #expect(values.object(forKey: "\u{212A}")?.object as? Int == 1)
    #expect(values.object(forKey: "K")?.object as? Int == 1)
    #expect(values.object(forKey: "é") == nil)
  }

  @Test("Stored values from an index: reads, then a write, then reads, agree with the file")
  func valuesBeforeAndAfterTheDictionary() throws {
    let original: [String: Any] = ["count": 3, "name": "Ada", "ratio": 0.5, "list": [1, 2]]
    let data = try #require(PropertyListBinaryWriter.data(for: original))
    var values = StoredValues(try #require(data.withUnsafeBytes(PropertyListBinaryReader.index)))
    #expect(!values.isEmpty)
    #expect(values.object(forKey: "count")?.object as? Int == 3)
    #expect(values.object(forKey: "absent") == nil)
    #expect(values.updateValue(StoredObject(4), forKey: "count")?.object as? Int == 3)
    #expect(values.object(forKey: "count")?.object as? Int == 4)
    #expect(values.object(forKey: "name")?.object as? String == "Ada")
    #expect(Set(values.names()) == ["count", "name", "ratio", "list"])
    #expect(values.removeValue(forKey: "name")?.object as? String == "Ada")
    #expect(values.dictionary().count == 3)
  }
}
