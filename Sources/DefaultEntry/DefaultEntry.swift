@_exported import UserDefault

/// Declares an entry on `UserDefaults` with a default: `@DefaultEntry(default: 0) var
/// launchCount: Int` stores under `"key_launchCount"` (or `prefixedWith + name`).
///
/// Write it inside `extension UserDefaults`. The property reads the stored value or the
/// default and writes through the library's value bridge (every `UserDefaultable`,
/// `RawRepresentable` and `Codable` type works). The macro also adds
/// `nonisolated static let launchCountKey: UserDefaults.Key<Int>` for the key's name,
/// default, `reset`, and observation. Cost per read: one typed-key read (a lookup and, when
/// the stored value changed, one decode).
///
/// The key is `nonisolated` in a module whose default isolation is the main actor too
/// (`.defaultIsolation(MainActor.self)`). The entry is the declaration you write, so it
/// takes the module's isolation; for nonisolated code to use it, write it in a
/// `nonisolated extension UserDefaults` or mark it `nonisolated`.
///
/// - Parameters:
///   - defaultValue: What the property reads while nothing readable is stored. It becomes
///     the `default:` of the generated key, so it is evaluated once, when the key is made.
///   - prefix: Put before the property's name to make the stored name; `"key_"` unless
///     given.
@attached(accessor)
@attached(peer, names: suffixed(Key))
public macro DefaultEntry<Value>(
  default defaultValue: Value, prefixedWith prefix: String = "key_"
) =
  #externalMacro(module: "DefaultEntryMacros", type: "DefaultEntryMacro")

/// Declares an optional entry with no default: `@DefaultEntry<String> var nickname: String?`
/// stores under `"key_nickname"` (or `prefixedWith + name`) and reads `nil` when nothing is
/// stored; setting `nil` removes it.
///
/// - Parameters:
///   - prefix: Put before the property's name to make the stored name; `"key_"` unless
///     given.
///
/// `@DefaultEntry<String>(prefixedWith: "app.") var nickname: String?` stores under
/// `"app.nickname"`.
@attached(accessor)
@attached(peer, names: suffixed(Key))
public macro DefaultEntry<Value>(prefixedWith prefix: String = "key_") =
  #externalMacro(module: "DefaultEntryMacros", type: "DefaultEntryMacro")

/// Declares an entry stored under exactly `key`, with a default:
/// `@DefaultEntry("com.app.launches", default: 0) var launchCount: Int`.
///
/// - Parameters:
///   - key: The exact name the value is stored under.
///   - defaultValue: What the property reads while nothing readable is stored. It becomes
///     the `default:` of the generated key, so it is evaluated once, when the key is made.
@attached(accessor)
@attached(peer, names: suffixed(Key))
public macro DefaultEntry<Value>(_ key: String, default defaultValue: Value) =
  #externalMacro(module: "DefaultEntryMacros", type: "DefaultEntryMacro")

/// Declares an optional entry stored under exactly `key`:
/// `@DefaultEntry<String>("com.app.nickname") var nickname: String?`.
///
/// - Parameters:
///   - key: The exact name the value is stored under.
@attached(accessor)
@attached(peer, names: suffixed(Key))
public macro DefaultEntry<Value>(_ key: String) =
  #externalMacro(module: "DefaultEntryMacros", type: "DefaultEntryMacro")

/// Declares an optional entry with no default, its type taken from the declaration:
/// `@DefaultEntry var nickname: String?` is `@DefaultEntry<String> var nickname: String?`.
///
/// - Parameters:
///   - prefix: Put before the property's name to make the stored name; `"key_"` unless
///     given.
///
/// `@DefaultEntry(prefixedWith: "app.") var nickname: String?` stores under `"app.nickname"`.
@attached(accessor)
@attached(peer, names: suffixed(Key))
public macro DefaultEntry(prefixedWith prefix: String = "key_") =
  #externalMacro(module: "DefaultEntryMacros", type: "DefaultEntryMacro")

/// Declares an optional entry stored under exactly `key`, its type taken from the
/// declaration: `@DefaultEntry("com.app.nickname") var nickname: String?`.
///
/// - Parameters:
///   - key: The exact name the value is stored under.
@attached(accessor)
@attached(peer, names: suffixed(Key))
public macro DefaultEntry(_ key: String) =
  #externalMacro(module: "DefaultEntryMacros", type: "DefaultEntryMacro")

/// `default: nil`, the same as no default: `@DefaultEntry(default: nil) var nickname: String?`.
/// (Only `nil` fits `Never?`; the macro checks that the property is optional.)
///
/// - Parameters:
///   - defaultValue: `nil`, the only value of `Never?`.
///   - prefix: Put before the property's name to make the stored name; `"key_"` unless
///     given.
@attached(accessor)
@attached(peer, names: suffixed(Key))
public macro DefaultEntry(default defaultValue: Never?, prefixedWith prefix: String = "key_") =
  #externalMacro(module: "DefaultEntryMacros", type: "DefaultEntryMacro")

/// `default: nil` with an explicit key, the same as no default:
/// `@DefaultEntry("com.app.nickname", default: nil) var nickname: String?`.
///
/// - Parameters:
///   - key: The exact name the value is stored under.
///   - defaultValue: `nil`, the only value of `Never?`.
@attached(accessor)
@attached(peer, names: suffixed(Key))
public macro DefaultEntry(_ key: String, default defaultValue: Never?) =
  #externalMacro(module: "DefaultEntryMacros", type: "DefaultEntryMacro")
