import Foundation
import Testing

@testable import UserDefault

/// A typed read finds by key number what the key's last read found, while nothing changed
/// (``FoundObjects``): every change a read would see must still be seen.
@Suite("Typed reads found by number")
struct FoundObjectsTests {
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
