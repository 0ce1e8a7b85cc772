import DefaultEntry
import Foundation
import SafeDefaultsKit
import Testing

@testable import UserDefault

extension UserDefaults {
  @DefaultEntry("registry.entry", default: 7)
  var registryEntry: Int
}

@Suite("Key registry export")
struct KeyRegistryExportTests {
  struct Shelf: SafeDefaults {
    enum Keys: String, DefaultsKey { case registryShelf }
    let userDefaults: UserDefaults
  }

  @Test func everyKindOfDeclarationIsExportedWithTypeDefaultAndPlace() throws {
    let suite = TestSuite()
    let typed = UserDefaults.Key<String>("registry.typed", default: "x")
    _ = UserDefault<Double>("registry.wrapper", defaultValue: 1.5, defaults: suite.defaults)
    _ = UserDefaultsWrapper<Int>(key: "registry.legacy", default: 3, userDefaults: suite.defaults)
    _ = suite.defaults.registryEntry
    Shelf(userDefaults: suite.defaults).set(1, forKey: .registryShelf)
    _ = typed

    let text = KeyRegistry.exportText()
    #expect(text.contains("registry.typed\tString\tdefault x\tany suite\tKey "))
    #expect(
      text.contains("registry.wrapper\tDouble\tdefault 1.5\t\(suite.name)\t@UserDefault "))
    #expect(
      text.contains("registry.legacy\tInt\tdefault 3\t\(suite.name)\t@UserDefaultsWrapper "))
    #expect(text.contains("registry.entry\tInt\tdefault 7\tany suite\tKey "))
    #expect(text.contains("registryShelf\t"))

    let declarations = try JSONDecoder().decode(
      [KeyRegistry.Declaration].self, from: KeyRegistry.exportJSON(suite: suite.name))
    let names = Set(declarations.map(\.name))
    #expect(
      names.isSuperset(of: [
        "registry.typed", "registry.wrapper", "registry.legacy", "registry.entry",
      ]))
    let entry = try #require(declarations.first { $0.name == "registry.entry" })
    #expect(entry.declaredBy.contains("KeyRegistryExportTests.swift"))
    // A suite's export leaves out declarations bound to other suites.
    let other = KeyRegistry.exportJSON(suite: "some.other.suite")
    #expect(!String(decoding: other, as: UTF8.self).contains("registry.wrapper"))
  }

  @Test("Keys and exported types print as declared, without module names")
  func keysAndTypesPrintWithoutModules() {
    let key = UserDefaults.Key<URL?>("registry.url." + UUID().uuidString.prefix(6))
    #expect("\(key)" == "Key<Optional<URL>>(\(key.name.debugDescription), default: nil)")
    let count = UserDefaults.Key<Int>("registry.count", default: 3)
    #expect("\(count)" == "Key<Int>(\"registry.count\", default: 3)")
    #expect(KeyRegistry.exportText().contains("\(key.name)\tOptional<URL>\t"))
    #expect(!KeyRegistry.exportText().contains("FoundationEssentials."))
  }

  @Test("A wrapper on an in-memory store is registered as in-memory, not as the standard suite")
  func inMemoryWrappersAreNotStandard() {
    let name = "registry.memory." + UUID().uuidString.prefix(6)
    _ = UserDefault(name, defaultValue: false, defaults: PreferencesStore.inMemory())
    let line = KeyRegistry.exportText().split(separator: "\n").first { $0.hasPrefix(name + "\t") }
    #expect(line?.contains("\tin-memory\t") == true, "\(line ?? "not registered")")
  }
}
