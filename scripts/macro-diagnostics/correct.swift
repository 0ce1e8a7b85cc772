import DefaultEntry
import Foundation

// Every form, used: no diagnostics at all.
enum Theme: String, Codable, Sendable { case light, dark }

extension UserDefaults {
  @DefaultEntry(default: "defaultValue") var exampleWithDefault: String
  @DefaultEntry<String> var exampleWithoutDefault: String?
  @DefaultEntry(default: 123) var exampleIntWithDefault: Int
  @DefaultEntry<Int>(prefixedWith: "customPrefix_") var exampleIntWithoutDefault: Int?
  @DefaultEntry var untypedOptional: String?
  @DefaultEntry(prefixedWith: "app.") var untypedPrefixed: Int?
  @DefaultEntry("com.example.keyed") var keyedOptional: Int?
  @DefaultEntry<Int>("com.example.keyedTyped") var keyedTypedOptional: Int?
  @DefaultEntry("com.example.launches", default: 0) var launches: Int
  @DefaultEntry(default: nil) var nilDefault: Int?
  @DefaultEntry("com.example.nil", default: nil) var keyedNilDefault: Int?
  @DefaultEntry(default: Theme.light, prefixedWith: "app.") var theme: Theme
  @DefaultEntry(default: []) var history: [String]
  @DefaultEntry(default: ["a": 1]) public var counts: [String: Int]
}

func useEntries(_ defaults: UserDefaults) -> Bool {
  defaults.exampleIntWithDefault += 1
  defaults.exampleWithoutDefault = nil
  defaults.theme = .dark
  return UserDefaults.launchesKey.name.isEmpty && defaults.nilDefault == nil
}
