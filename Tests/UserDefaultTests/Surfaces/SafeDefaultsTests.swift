import Foundation
import Testing

@testable import SafeDefaultsKit
@testable import UserDefault

/// Surface D: enum-keyed `SafeDefaults`.
@Suite("SafeDefaults")
struct SafeDefaultsTests {
  struct BookDefaults: SafeDefaults {
    enum Keys: String, DefaultsKey, CaseIterable {
      case id, title, cover, rating, ratio, read, tags, info, blob
    }
    let userDefaults: UserDefaults
  }

  struct PrefixedDefaults: SafeDefaults {
    enum Keys: String, DefaultsKey {
      case id
      var uniqueValue: String { "PrefixedDefaults.\(Keys.self).\(rawValue)" }
    }
    let userDefaults: UserDefaults
  }

  @Test func numericGettersAreNilWhenAbsent() {
    let suite = TestSuite()
    let books = BookDefaults(userDefaults: suite.defaults)
    #expect(books.integer(forKey: .id) == nil)
    #expect(books.double(forKey: .rating) == nil)
    #expect(books.float(forKey: .ratio) == nil)
    #expect(books.bool(forKey: .read) == false)
    books.set(5, forKey: .id)
    books.set(4.5, forKey: .rating)
    books.set(Float(0.25), forKey: .ratio)
    books.set(true, forKey: .read)
    #expect(books.integer(forKey: .id) == 5)
    #expect(books.double(forKey: .rating) == 4.5)
    #expect(books.float(forKey: .ratio) == 0.25)
    #expect(books.bool(forKey: .read))
    books.removeObject(forKey: .id)
    #expect(books.integer(forKey: .id) == nil)
  }

  @Test func everyGetterAndSetter() {
    let suite = TestSuite()
    let books = BookDefaults(userDefaults: suite.defaults)
    books.set("Dune", forKey: .title)
    books.set(URL(string: "https://example.com/c.png?s=2"), forKey: .cover)
    books.set(["a", "b"], forKey: .tags)
    books.set(["k": 1], forKey: .info)
    books.set(Data([1, 2]), forKey: .blob)
    #expect(books.string(forKey: .title) == "Dune")
    #expect(books.object(forKey: .title) as? String == "Dune")
    #expect(books.url(forKey: .cover)?.absoluteString == "https://example.com/c.png?s=2")
    #expect(books.stringArray(forKey: .tags) == ["a", "b"])
    #expect(books.array(forKey: .tags)?.count == 2)
    #expect(books.dictionary(forKey: .info)?["k"] as? Int == 1)
    #expect(books.data(forKey: .blob) == Data([1, 2]))
    books.set(nil as URL?, forKey: .cover)
    #expect(books.url(forKey: .cover) == nil)
    books.set(nil as Any?, forKey: .title)
    #expect(books.string(forKey: .title) == nil)
    books.removeAll()
    #expect(suite.defaults.object(forKey: "tags") == nil)
    #expect(suite.diagnostics.isEmpty)
  }

  @Test func customUniqueValueIsTheStoredName() {
    let suite = TestSuite()
    let prefixed = PrefixedDefaults(userDefaults: suite.defaults)
    prefixed.set(9, forKey: .id)
    #expect(suite.defaults.integer(forKey: "PrefixedDefaults.Keys.id") == 9)
  }

  @Test func nonPropertyListValueIsRefused() {
    let suite = TestSuite()
    let books = BookDefaults(userDefaults: suite.defaults)
    books.set(Theme.dark, forKey: .title)
    #expect(books.object(forKey: .title) == nil)
    #expect(suite.diagnostics.map(\.kind) == [.refusedValue])
  }

  struct ComicDefaults: SafeDefaults {
    enum Keys: String, DefaultsKey { case id }
    let userDefaults: UserDefaults
  }

  @Test("BookDefaults.id and ComicDefaults.id share the stored name \"id\": reported, both work")
  func sameStoredNameFromTwoTypesIsReported() {
    let suite = TestSuite()
    let books = BookDefaults(userDefaults: suite.defaults)
    let comics = ComicDefaults(userDefaults: suite.defaults)
    books.set(1, forKey: .id)
    comics.set(2, forKey: .id)
    let events = suite.diagnostics.filter { $0.kind == .keyCollision }
    #expect(events.count == 1)
    #expect(events.first?.message.contains("BookDefaults") == true)
    #expect(events.first?.message.contains("ComicDefaults") == true)
    #expect(comics.integer(forKey: .id) == 2)
  }

  @Test("An entry replaced in the memo while it is borrowed lives until the borrow ends")
  func replacedEntryOutlivesItsBorrow() throws {
    let suite = TestSuite()
    let store = ObjectIdentifier(suite.defaults)
    let books = BookDefaults(userDefaults: suite.defaults)
    books.set(1, forKey: .id)  // resolves and keeps .id for Int on this thread
    let bits = try #require(ResolvedKeys.bits(of: BookDefaults.Keys.id))
    let hit = try #require(ResolvedKeys.find(BookDefaults.self, Int.self, store, bits))
    let memo = hit.memo.takeUnretainedValue()
    weak var borrowed: ResolvedKeys.AnyEntry?
    hit.borrow(as: Int.self) { entry in
      borrowed = entry
      // What a reentrant call would do: the same key resolved again into the same slot.
      let replacement = ResolvedKeys.Entry(
        defaults: suite.defaults, name: ResolvedName<Int>(BookDefaults.Keys.id.rawValue))
      ResolvedKeys.keep(replacement, BookDefaults.self, Int.self, suite.defaults, bits)
      // Set aside, not released: the borrow still uses it.
      #expect(memo.setAside.count == 1 && memo.setAside.first === borrowed)
      #expect(entry.value() == 1)
    }
    #expect(memo.setAside.isEmpty)
    #expect(borrowed == nil)
    #expect(books.integer(forKey: .id) == 1)
  }

  struct ObservedDefaults: SafeDefaults {
    enum Keys: String, DefaultsKey { case observed = "SafeDefaultsTests.observed" }
    let userDefaults: UserDefaults
  }

  @Test("Observers that use many other SafeDefaults keys during a SafeDefaults write")
  func observersUsingOtherKeysDuringAWrite() {
    let suite = TestSuite()
    let observed = ObservedDefaults(userDefaults: suite.defaults)
    let key = UserDefaults.Key<Int?>(ObservedDefaults.Keys.observed.rawValue)
    let observation = suite.defaults.observe(key) { change in
      // Other stores give other identities, so the memo's slots are replaced meanwhile.
      for _ in 0..<64 {
        let other = BookDefaults(userDefaults: PreferencesStore.inMemory())
        for key in BookDefaults.Keys.allCases { other.set(7, forKey: key) }
        #expect(other.integer(forKey: .rating) == 7)
      }
    }
    defer { observation.cancel() }
    for value in 1...5 {
      observed.set(value, forKey: .observed)
      #expect(observed.integer(forKey: .observed) == value)
    }
  }
}
