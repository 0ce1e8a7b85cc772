import Foundation
import Testing

@testable import PropertyListCodec
@testable import UserDefault

/// A typed read finds by key number what the key's last read found, while nothing changed
/// (``FoundObjects``): every change a read would see must still be seen. A change of the
/// lower domains is pinned by "A change to the global file is noticed by the poll, and
/// observers are told" (`SearchListTests`), a write under a launch argument by the child
/// process test "A write under an argument goes to the file; reads keep the argument".
@Suite("Typed reads found by number")
struct FoundObjectsTests {
  /// The rule holds on every backend; only the stores keep what reads found.
  @Test(
    "A typed read sees every change made since the key's last read, through either object",
    arguments: BackendKind.allCases)
  func aTypedReadSeesEveryChangeSinceItsLastRead(_ kind: BackendKind) throws {
    let (writer, reader, keepAlive) = kind.makeSuite()
    let key = UserDefaults.Key<Int>(uniqueKey(), default: -1)
    let other = UserDefaults.Key<Int>(uniqueKey("other"), default: -1)
    let text = UserDefaults.Key<String>(uniqueKey("text"), default: "")

    #expect(reader[key] == -1)
    writer.set(3, forKey: key.name)  // by name: the write has no key number
    #expect(reader[key] == 3)
    writer[key] = 4
    #expect(reader[key] == 4)
    #expect(reader[other] == -1)
    writer[other] = 5  // another key's write leaves this key's value as it was
    #expect(reader[key] == 4 && reader[other] == 5)
    writer.removeObject(forKey: key.name)
    #expect(reader[key] == -1)
    reader.register(defaults: [key.name: 6])
    #expect(reader[key] == 6)
    reader.register(defaults: [key.name: 7])
    #expect(reader[key] == 7)
    try writer.update(key) { $0 += 1 }
    #expect(reader[key] == 8)
    // A typed write of one key leaves what reads of the others found; a change of one of
    // them after that write is still seen.
    #expect(reader[other] == 5)
    writer[key] = 9
    #expect(reader[other] == 5)
    writer[key] = 10
    writer.set(11, forKey: other.name)
    #expect(reader[other] == 11 && reader[key] == 10)
    reader.register(defaults: [other.name: 0])
    writer.removeObject(forKey: other.name)
    writer[key] = 12
    #expect(reader[other] == 0 && reader[key] == 12)
    writer[text] = "a"
    #expect(reader[text] == "a")
    writer.set("b", forKey: text.name)
    #expect(reader[text] == "b")
    writer.reset(text)
    #expect(reader[text] == "")
    withExtendedLifetime(keepAlive) {}
  }

  @Test(
    "Reads after a transaction of several keys see each key's write, and leave others as they were",
    arguments: BackendKind.allCases)
  func readsAfterATransactionSeeEachWrite(_ kind: BackendKind) throws {
    let (writer, reader, keepAlive) = kind.makeSuite()
    let first = UserDefaults.Key<Int>(uniqueKey("first"), default: 0)
    let second = UserDefaults.Key<String>(uniqueKey("second"), default: "")
    let untouched = UserDefaults.Key<Int>(uniqueKey("untouched"), default: 0)
    writer[untouched] = 7
    #expect(reader[first] == 0 && reader[second] == "" && reader[untouched] == 7)
    try writer.transaction { t in
      t[first] = 1
      t[second] = "b"
      t[first] += 1
    }
    #expect(reader[first] == 2 && reader[second] == "b" && reader[untouched] == 7)
    _ = reader.dictionaryRepresentation()  // a listing changes nothing a read finds
    writer.set(8, forKey: untouched.name)
    #expect(reader[untouched] == 8 && reader[first] == 2)
    withExtendedLifetime(keepAlive) {}
  }

  @Test("What reads found keeps scalars and short text only, for numbers not far past those kept")
  func whatIsKept() {
    var found = FoundObjects()
    let short = String(repeating: "a", count: FoundObjects.longestText)
    found.keep(.int(1), 0, version: 1)
    found.keep(.string(short), 1, version: 1)
    found.keep(.string(short + "a"), 2, version: 1)
    found.keep(.other(Data([1])), 3, version: 1)
    found.keep(nil, 4, version: 1)
    #expect(Self.describe(found.object(0, version: 1)) == "kept 1")
    #expect(Self.describe(found.object(1, version: 1)) == "kept \(short)")
    #expect(Self.describe(found.object(2, version: 1)) == "not kept")
    #expect(Self.describe(found.object(3, version: 1)) == "not kept")
    #expect(Self.describe(found.object(4, version: 1)) == "kept nothing")
    #expect(Self.describe(found.object(0, version: 2)) == "not kept")
    // Five numbers kept: one far past them is looked up by name.
    let far = FoundObjects.numbersAlwaysKept + 100
    found.keep(.int(5), far, version: 1)
    #expect(Self.describe(found.object(far, version: 1)) == "not kept")
    found.keep(.int(6), FoundObjects.numbersAlwaysKept - 1, version: 1)
    #expect(Self.describe(found.object(FoundObjects.numbersAlwaysKept - 1, version: 1)) == "kept 6")
  }

  static func describe(_ found: StoredObject??) -> String {
    switch found {
    case nil: "not kept"
    case .some(nil): "kept nothing"
    case .some(let object?): "kept \(object.object)"
    }
  }

  @Test("A value written over by name is not kept alive by what an earlier read found")
  func aValueWrittenOverByNameIsReleased() {
    let store = PreferencesStore.inMemory()
    let name = uniqueKey("blob")
    let number = KeyIdentity.of(name).number
    weak var released: NSData?
    do {
      let blob = NSData(data: Data(count: 16))
      released = blob
      store.fileStore.update(name, to: blob, identity: nil)
      #expect(store.fileStore.storedObject(forKey: name, number: number) != nil)
    }
    store.removeObject(forKey: name)
    #expect(released == nil)
  }

  @Test("A typed read of a store sees the file another program replaced, once read again")
  func aTypedReadSeesAReplacedFile() throws {
    let directory = TemporaryDirectory()
    Diagnostics.installRecorder()
    let store = try PreferencesStore(suiteName: "replaced", directory: directory.path)
    let key = UserDefaults.Key<String>("replaced.theme", default: "none")
    store[key] = "light"
    try store.flush()
    #expect(store[key] == "light")
    let path = directory.path + "/replaced.plist"
    let staged = path + ".new"
    try PropertyListSerialization.data(
      fromPropertyList: ["replaced.theme": "dark"], format: .binary, options: 0
    ).write(to: URL(fileURLWithPath: staged))
    #expect(rename(staged, path) == 0)
    store.fileStore.reloadFromDisk()  // what the poll does
    #expect(store[key] == "dark")
  }
}
