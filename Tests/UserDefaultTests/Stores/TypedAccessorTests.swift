import Foundation
import Testing

@testable import UserDefault

/// `PreferencesStore` overrides every typed accessor of `UserDefaults`: Darwin's Foundation
/// need not route them through `object(forKey:)` and `set(_:forKey:)`, as Linux's does, so
/// each must read and write the store itself, and convert as Apple documents.
@Suite struct TypedAccessorTests {
  @Test func typedSettersStoreNativeValues() {
    let store = PreferencesStore.inMemory()
    store.set(7, forKey: "int")
    store.set(Float(0.1), forKey: "float")
    store.set(2.5, forKey: "double")
    store.set(true, forKey: "bool")
    #expect(store.object(forKey: "int") as? Int == 7)
    #expect(store.object(forKey: "double") as? Double == 2.5)
    #expect(store.object(forKey: "bool") as? Bool == true)
    #expect(store.float(forKey: "float") == Float(0.1))
    #expect(store.double(forKey: "float") == Double(Float(0.1)))
    // Typed keys read what the typed setters wrote.
    #expect(store[UserDefaults.Key<Int>("int", default: 0)] == 7)
    #expect(store[UserDefaults.Key<Float>("float", default: 0)] == Float(0.1))
    #expect(store[UserDefaults.Key<Bool>("bool", default: false)] == true)
  }

  @Test func numbersAndTextConvertAsAppleDocuments() {
    let store = PreferencesStore.inMemory()
    store.set(5.9, forKey: "real")
    store.set(true, forKey: "yes")
    store.set("42", forKey: "digits")
    store.set("YES", forKey: "word")
    store.set("2.5", forKey: "decimal")
    store.set(12, forKey: "twelve")
    store.set(Data([1]), forKey: "data")

    #expect(store.integer(forKey: "real") == 5)
    #expect(store.integer(forKey: "yes") == 1)
    #expect(store.integer(forKey: "digits") == 42)
    #expect(store.integer(forKey: "word") == 0)
    #expect(store.integer(forKey: "data") == 0)
    #expect(store.integer(forKey: "missing") == 0)

    #expect(store.double(forKey: "twelve") == 12)
    #expect(store.double(forKey: "decimal") == 2.5)
    #expect(store.double(forKey: "yes") == 1)
    #expect(store.float(forKey: "decimal") == 2.5)
    #expect(store.float(forKey: "missing") == 0)

    #expect(store.bool(forKey: "yes"))
    #expect(store.bool(forKey: "twelve"))
    #expect(store.bool(forKey: "word"))
    #expect(store.bool(forKey: "digits"))
    #expect(!store.bool(forKey: "data"))
    #expect(!store.bool(forKey: "missing"))

    #expect(store.string(forKey: "digits") == "42")
    #expect(store.string(forKey: "twelve") == "12")
    #expect(store.string(forKey: "real") == "5.9")
    #expect(store.string(forKey: "data") == nil)
  }

  @Test func containerAccessorsReadTheStore() {
    let store = PreferencesStore.inMemory()
    store.set(["a", "b"], forKey: "strings")
    store.set([1, "x"] as [Any], forKey: "mixed")
    store.set(["k": 1], forKey: "dictionary")
    store.set(Data([0, 255]), forKey: "data")

    #expect(store.stringArray(forKey: "strings") == ["a", "b"])
    #expect(store.stringArray(forKey: "mixed") == nil)
    #expect(store.array(forKey: "mixed")?.count == 2)
    #expect(store.dictionary(forKey: "dictionary")?["k"] as? Int == 1)
    #expect(store.dictionary(forKey: "strings") == nil)
    #expect(store.data(forKey: "data") == Data([0, 255]))
    #expect(store.data(forKey: "strings") == nil)
  }

  @Test func typedWritesReachObserversAndOtherObjects() throws {
    let directory = TemporaryDirectory()
    let suite = uniqueKey()
    let first = try PreferencesStore(suiteName: suite, directory: directory.path)
    let second = try PreferencesStore(suiteName: suite, directory: directory.path)
    let seen = Recorder<Int>()
    let observation = second.observe(UserDefaults.Key<Int>("count", default: 0)) {
      seen.append($0.newValue)
    }
    defer { observation.cancel() }
    first.set(3, forKey: "count")
    #expect(second.integer(forKey: "count") == 3)
    #expect(seen.all == [3])
  }
}
