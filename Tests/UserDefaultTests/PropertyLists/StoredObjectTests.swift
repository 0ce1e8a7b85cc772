import Foundation
import Testing

@testable import PropertyListCodec
@testable import UserDefault

@Suite("The store's objects (StoredObject)")
struct StoredObjectTests {
  /// Objects of every kind a store may hold, including Foundation's and Swift's other
  /// number types, which must not be taken for the scalars held unboxed.
  static var samples: [Any] {
    [
      7, -1, 0, Int64(7), Int32(7), UInt64.max, NSNumber(value: 7), NSNumber(value: true),
      NSNumber(value: 2.5), true, false, 2.5, -0.0, Double.nan, Float(2.5), "", "7", "true",
      NSString(string: "7"), Data([7]), Date(timeIntervalSince1970: 7), [7] as [Any],
      ["k": 7] as [String: Any],
    ]
  }

  /// Whether `lhs` and `rhs` are both `nil`, or both hold the same property-list value.
  static func same(_ lhs: Any?, _ rhs: Any?) -> Bool {
    switch (lhs, rhs) {
    case (nil, nil): true
    case (let lhs?, let rhs?): PropertyListEquality.isEqual(lhs, rhs)
    default: false
    }
  }

  @Test("Only the exact Swift scalar types are held unboxed")
  func onlyExactScalarsAreUnboxed() {
    func isUnboxed(_ object: Any) -> Bool {
      if case .other = StoredObject(object) { return false }
      return true
    }
    #expect(isUnboxed(7) && isUnboxed(2.5) && isUnboxed(true) && isUnboxed("7"))
    for boxed: Any in [
      Int64(7), Int32(7), UInt64.max, Float(2.5), NSNumber(value: 7), NSNumber(value: true),
      NSString(string: "7"), Data([7]), [7] as [Any],
    ] {
      #expect(!isUnboxed(boxed), "\(type(of: boxed))")
    }
  }

  @Test("Reading a stored object as a type gives what casting the object gives")
  func readingMatchesTheCast() {
    func check<Value>(_: Value.Type, _ object: Any) {
      let read = StoredObject(object).value(as: Value.self)
      let cast = object as? Value
      #expect(Self.same(read, cast), "\(type(of: object)) \(object) as \(Value.self)")
    }
    for object in Self.samples {
      check(Int.self, object)
      check(Double.self, object)
      check(Bool.self, object)
      check(String.self, object)
      check(Data.self, object)
      check(Int?.self, object)
      check(String?.self, object)
    }
  }

  @Test("Reading with the type written out, as an optimised read does, gives the cast")
  func readingWithConcreteTypesMatchesTheCast() {
    // Concrete types, so that an optimised build folds these reads as it folds the store's
    // (the generic test above checks every pair, unspecialised in a debug build).
    #expect(StoredObject.int(7).value(as: Int.self) == 7)
    #expect(StoredObject.int(7).value(as: Int?.self) == .some(7))
    #expect(StoredObject.int(7).value(as: Double.self) == nil)
    #expect(StoredObject.int(1).value(as: Bool.self) == nil)
    #expect(StoredObject.bool(true).value(as: Int.self) == nil)
    #expect(StoredObject.bool(true).value(as: Bool.self) == true)
    #expect(StoredObject.double(2.5).value(as: Float.self) == nil)
    #expect(StoredObject.double(2.5).value(as: Double.self) == 2.5)
    #expect(StoredObject.string("7").value(as: Int.self) == nil)
    #expect(StoredObject.string("7").value(as: String.self) == "7")
    let number = NSNumber(value: true)
    #expect(StoredObject(number).value(as: Bool.self) == ((number as Any) as? Bool))
    #expect(StoredObject(Int64(7)).value(as: Int.self) == ((Int64(7) as Any) as? Int))
  }

  @Test("Two stored objects are the same exactly when their objects are equal property lists")
  func samenessMatchesPropertyListEquality() {
    for lhs in Self.samples {
      for rhs in Self.samples {
        #expect(
          StoredObject(lhs).isSame(as: StoredObject(rhs)) == PropertyListEquality.isEqual(lhs, rhs),
          "\(type(of: lhs)) \(lhs) / \(type(of: rhs)) \(rhs)")
      }
    }
  }

  @Test("An object comes back out as the object it was made from")
  func objectRoundTrips() {
    for object in Self.samples {
      let back = StoredObject(object).object
      #expect(type(of: back) == type(of: object))
      #expect(PropertyListEquality.isEqual(back, object), "\(object)")
    }
  }

  @Test("The reader holds the root's scalars unboxed and nested values as Foundation's objects")
  func readerTypesTheRootOnly() throws {
    let text = """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0">
      <dict>
      \t<key>i</key><integer>7</integer>
      \t<key>big</key><integer>18446744073709551615</integer>
      \t<key>s</key><string>seven</string>
      \t<key>b</key><true/>
      \t<key>r</key><real>2.5</real>
      \t<key>a</key><array><integer>1</integer><string>x</string></array>
      \t<key>d</key><dict><key>n</key><integer>2</integer></dict>
      </dict>
      </plist>
      """
    let values = try #require(
      Data(text.utf8).withUnsafeBytes { PropertyListXMLReader.storedObjects(in: $0) })
    guard case .int(7) = values["i"], case .string("seven") = values["s"],
      case .bool(true) = values["b"], case .double(2.5) = values["r"]
    else {
      Issue.record("root scalars: \(values)")
      return
    }
    guard case .other(let big) = values["big"], case .other(let array) = values["a"],
      case .other(let dictionary) = values["d"]
    else {
      Issue.record("other values: \(values)")
      return
    }
    #expect(big as? UInt64 == UInt64.max)
    let elements = try #require(array as? [Any])
    #expect(elements.first as? Int == 1 && elements.last as? String == "x")
    #expect((dictionary as? [String: Any])?["n"] as? Int == 2)
  }

  @Test("A file read by Foundation's parser is compared with the store's own objects by value")
  func foundationParsedFilesCompareByValue() throws {
    Diagnostics.installRecorder()
    let directory = TemporaryDirectory()
    let store = try PreferencesStore(suiteName: "parsed", directory: directory.path)
    FilePoller.stopPolling(store.fileStore)  // the test reloads the file itself
    store.set(7, forKey: "same")
    store.set(true, forKey: "flag")
    try store.flush()
    let heard = Recorder<String>()
    let observation = store.observeChanges { heard.append($0) }
    // A binary file, which only Foundation's parser reads: its objects are not sorted
    // into the store's scalar cases by the reader.
    let binary = try PropertyListSerialization.data(
      fromPropertyList: ["same": 7, "flag": true, "added": 1] as [String: Any], format: .binary,
      options: 0)
    try binary.write(to: URL(fileURLWithPath: directory.path + "/parsed.plist"), options: .atomic)
    store.fileStore.reloadFromDisk()
    #expect(heard.all == ["added"])
    #expect(store.integer(forKey: "same") == 7)
    #expect(store.bool(forKey: "flag"))
    observation.cancel()
  }

  @Test("A registered NSNumber reads through a typed key as its cast gives")
  func registeredNumbersReadAsTheirCast() {
    let store = PreferencesStore.inMemory()
    let number = NSNumber(value: true)
    store.register(defaults: ["flag": number, "count": NSNumber(value: 3)])
    #expect(store[UserDefaults.Key<Bool>("flag", default: false)] == true)
    #expect(store[UserDefaults.Key<Int>("count", default: 0)] == 3)
  }

  @Test(
    "A write of an equal value is no change; a value of another property-list type is",
    arguments: BackendKind.allCases)
  func equalWritesAreNoChange(_ kind: BackendKind) throws {
    let (a, b, keepAlive) = kind.makeSuite()
    let name = uniqueKey()
    let heard = Recorder<String>()
    let observation = a.observeChanges { if $0 == name { heard.append($0) } }
    let writes: [(value: Any?, isChange: Bool)] = [
      (1, true), (1, false), (true, true), (NSNumber(value: true), false), (1.0, true),
      (1.0, false), ("1", true), ("1", false), (Data([1]), true), (Data([1]), false),
      ([1] as [Any], true), ([1] as [Any], false), (nil, true), (nil, false),
    ]
    for (index, write) in writes.enumerated() {
      let before = heard.all.count
      // Both objects of the suite write, in turn: each sees the other's value.
      try (index.isMultiple(of: 2) ? a : b).store(write.value, forKey: name)
      #expect(heard.all.count - before == (write.isChange ? 1 : 0), "write \(index)")
      #expect(Self.same(a.object(forKey: name), write.value), "write \(index)")
    }
    observation.cancel()
    withExtendedLifetime(keepAlive) {}
  }
}
