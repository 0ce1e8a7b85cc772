import Foundation
import Testing

@testable import PropertyListCodec
@testable import UserDefault

/// The index a cold open keeps instead of a dictionary: it must answer exactly what the
/// reader's dictionary answers, and accept no file the reader refuses.
@Suite("The property-list index")
struct PropertyListIndexTests {
  /// The index of `data` by the reader of its format.
  private func index(_ data: Data) -> PropertyListIndex? {
    if data.starts(with: Array("bplist".utf8)) {
      return data.withUnsafeBytes(PropertyListBinaryReader.index)
    }
    guard case .indexed(let index) = data.withUnsafeBytes(PropertyListXMLReader.root) else {
      return nil
    }
    return index
  }

  /// The dictionary of `data` by the reader of its format.
  private func storedObjects(_ data: Data) -> [String: StoredObject]? {
    data.starts(with: Array("bplist".utf8))
      ? data.withUnsafeBytes(PropertyListBinaryReader.storedObjects)
      : data.withUnsafeBytes(PropertyListXMLReader.storedObjects)
  }

  /// Checks that `made` holds the keys of `read`, each value of the same kind and equal.
  private func expectSame(
    _ made: [String: StoredObject], as read: [String: StoredObject], _ label: String
  ) throws {
    #expect(made.count == read.count, "\(label)")
    for (key, value) in read {
      let object = try #require(made[key], "\(label): \(key) missing")
      expectSame(object, as: value, "\(label): \(key)")
    }
  }

  private func expectSame(_ object: StoredObject, as read: StoredObject, _ label: String) {
    #expect(PropertyListKind(of: object.object) == PropertyListKind(of: read.object), "\(label)")
    #expect(PropertyListEquality.isEqual(object.object, read.object), "\(label)")
  }

  /// Checks that the index of `data`, when there is one, is the reader's dictionary: the
  /// same keys, each value of the same kind and equal, each found by a lookup.
  private func expectSameAsReader(_ data: Data, _ label: String) throws {
    if !data.starts(with: Array("bplist".utf8)) {
      // The XML root: what the reader refuses, and, once declined, the reader's dictionary.
      switch data.withUnsafeBytes(PropertyListXMLReader.root) {
      case nil:
        #expect(storedObjects(data) == nil, "\(label): the reader reads what the root refuses")
      case .dictionary(let made):
        let read = try #require(storedObjects(data), "\(label): made, but the reader refuses it")
        try expectSame(made, as: read, label)
      case .indexed:
        break
      }
    }
    guard let index = index(data) else { return }
    let read = try #require(storedObjects(data), "\(label): indexed, but the reader refuses it")
    try expectSame(index.dictionary(), as: read, label)
    #expect(index.count == read.count, "\(label)")
    for (key, value) in read {
      guard case .found(let found) = index.lookup(key) else {
        Issue.record("\(label): \(key) not found")
        continue
      }
      expectSame(found, as: value, "\(label): \(key)")
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

  @Test("Every file of the corpus: the index is the reader's dictionary")
  func corpusFiles() throws {
    var binary = (files: 0, indexed: 0)
    var xml = (files: 0, indexed: 0)
    for name in PreferenceFileCorpusTests.names {
      let data = try Data(contentsOf: PreferenceFileCorpusTests.folder.appendingPathComponent(name))
      let isIndexed = index(data) != nil ? 1 : 0
      if data.starts(with: Array("bplist".utf8)) {
        binary = (binary.files + 1, binary.indexed + isIndexed)
      } else {
        xml = (xml.files + 1, xml.indexed + isIndexed)
      }
      try expectSameAsReader(data, name)
    }
    // 33 binary files and 23 XML files, every key ASCII with no `&`, `<` or CDATA
    // (plistlib): each one is indexed but the XML file the reader leaves to Foundation
    // (19-screencapture, its `<string eval="true">` an attribute).
    #expect(binary == (33, 33))
    #expect(xml == (23, 22))
  }

  @Test("An XML file's index declines what only the dictionary reads right")
  func xmlDeclines() throws {
    func document(_ entries: String) -> Data {
      Data("<plist version=\"1.0\"><dict>\(entries)</dict></plist>".utf8)
    }
    let declined = [
      "a repeated key, whose last value wins": document(
        "<key>k</key><integer>1</integer><key>k</key><integer>2</integer>"),
      "a key not ASCII": document("<key>\u{E9}</key><true/>"),
      "a key with a character reference": document("<key>a&amp;b</key><true/>"),
      "a key with a numeric reference": document("<key>&#75;</key><true/>"),
      "a key in CDATA": document("<key><![CDATA[k]]></key><true/>"),
    ]
    // The keys before the one declined are kept, and the rest read on.
    let plain = (0..<300).map { "<key>p\($0)</key><integer>\($0)</integer>" }.joined()
    let late = document(plain + "<key>\u{E9}</key><true/><key>q</key><false/>")
    for (label, data) in declined.merging(
      ["a key not ASCII after 300 plain ones": late], uniquingKeysWith: { $1 })
    {
      #expect(index(data) == nil, "\(label)")
      guard case .dictionary = data.withUnsafeBytes(PropertyListXMLReader.root) else {
        Issue.record("\(label): not made a dictionary")
        continue
      }
      try expectSameAsReader(data, label)
    }
    #expect(storedObjects(late)?.count == 302)
    #expect(
      storedObjects(declined["a repeated key, whose last value wins"]!)?["k"]?.object as? Int == 2)
    #expect(storedObjects(declined["a key with a character reference"]!)?["a&b"] != nil)
  }

  @Test(
    "An XML file whose table fills: it grows as projected, then doubles, and every key is found",
    arguments: [(0, 32_768), (4_200, 131_072)])
  func xmlTableGrows(longKeys: Int, slots: Int) throws {
    // The table starts at 4,096 keys at most (8,192 slots). Full, it makes room for what
    // the rest promises at the length of the entries so far: 5,000 short ones project
    // 8,192 keys (32,768 slots). 4,200 long ones first project 12,288 (65,536 slots), too
    // few for the 40,000 short ones after them: the table doubles once more.
    let long = (0..<longKeys).map { "<key>\(String(repeating: "x", count: 200))\($0)</key><true/>" }
    let short = (0..<(longKeys == 0 ? 5_000 : 40_000)).map { "<key>k\($0)</key><true/>" }
    let entries = (long + short).joined()
    let data = Data("<plist><dict>\(entries)</dict></plist>".utf8)
    let made = try #require(index(data))
    #expect(made.count == long.count + short.count)
    #expect(made.slotCount == slots)
    try expectSameAsReader(data, "\(longKeys) long keys")
    // The first key again, after the table was made again: found, so declined.
    let repeated = Data("<plist><dict>\(entries)<key>k0</key><false/></dict></plist>".utf8)
    #expect(index(repeated) == nil)
    #expect(storedObjects(repeated)?["k0"]?.object as? Bool == false)
  }

  @Test("An empty root dictionary is an empty index")
  func emptyRoot() throws {
    let made = try #require(index(Data("<plist><dict/></plist>".utf8)))
    #expect(made.count == 0)
    #expect(made.heldBytes == 0)
    guard case .absent = made.lookup("k") else {
      Issue.record("a key found in an empty index")
      return
    }
  }

  @Test("An XML file, every truncation and every byte changed: never more than the reader")
  func damagedXML() throws {
    let data = try #require(
      PropertyListXMLWriter.data(for: ["a": [1, "two", 3.5], "b": true, "key": "value", "n": -7]))
    try expectSameAsReader(data, "intact")
    #expect(index(data) != nil)
    for offset in data.indices {
      for replacement in [UInt8(ascii: "<"), UInt8(ascii: "&"), 0x80, UInt8(ascii: "k")] {
        var damaged = data
        damaged[offset] = replacement
        try expectSameAsReader(damaged, "byte \(offset) = \(replacement)")
      }
      try expectSameAsReader(data.prefix(offset), "first \(offset) bytes")
    }
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

  @Test(
    "A file of large values: the index keeps the keys' bytes, and still answers",
    arguments: ["binary", "XML"])
  func largeValues(format: String) throws {
    let blob = Data(repeating: 0x5A, count: 100_000)
    let values: [String: Any] = ["blob": blob, "other blob": blob + [1], "n": 3]
    let data = try #require(
      format == "binary"
        ? PropertyListBinaryWriter.data(for: values) : PropertyListXMLWriter.data(for: values))
    try expectSameAsReader(data, "large values")
    let indexed = try #require(index(data))
    #expect(data.count > 200_000)
    #expect(indexed.heldBytes == "blob".utf8.count + "other blob".utf8.count + "n".utf8.count)
    guard case .found(let found) = indexed.lookup("other blob") else {
      Issue.record("\"other blob\" not found")
      return
    }
    #expect((found.object as? Data)?.count == 100_001)
  }

  @Test("An empty key is a key like any other", arguments: ["binary", "XML"])
  func emptyKey(format: String) throws {
    let values: [String: Any] = ["": 1, "a": 2]
    let data = try #require(
      format == "binary"
        ? PropertyListBinaryWriter.data(for: values) : PropertyListXMLWriter.data(for: values))
    try expectSameAsReader(data, "empty key")
    let indexed = try #require(index(data))
    guard case .found(let found) = indexed.lookup(""), found.object as? Int == 1 else {
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

  @Test(
    "Stored values from an index: reads, then a write, then reads, agree with the file",
    arguments: ["binary", "XML"])
  func valuesBeforeAndAfterTheDictionary(format: String) throws {
    let original: [String: Any] = ["count": 3, "name": "Ada", "ratio": 0.5, "list": [1, 2]]
    let data = try #require(
      format == "binary"
        ? PropertyListBinaryWriter.data(for: original) : PropertyListXMLWriter.data(for: original))
    var values = StoredValues(try #require(index(data)))
    #expect(!values.isEmpty)
    #expect(values.object(forKey: "count")?.object as? Int == 3)
    #expect(values.object(forKey: "absent") == nil)
    #expect(values.updateValue(StoredObject(4), forKey: "count")?.object as? Int == 3)
    #expect(values.object(forKey: "count")?.object as? Int == 4)
    #expect(values.object(forKey: "name")?.object as? String == "Ada")
    #expect(Set(try #require(values.madeDictionary).keys) == ["count", "name", "ratio", "list"])
    #expect(values.removeValue(forKey: "name")?.object as? String == "Ada")
    #expect(values.dictionary().count == 3)
  }
}
