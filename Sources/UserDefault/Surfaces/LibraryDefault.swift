import Foundation

extension UserDefaults {
  /// The instance the library's wrappers and `SafeDefaults` use when none is given:
  /// `.standard`, unless ``PreferencesStore/makeLibraryDefault()`` was called.
  /// Cost: one lock.
  public static var libraryDefault: UserDefaults {
    LibraryDefault.shared.standard ?? .standard
  }

  /// A named suite: the library's store for it after
  /// ``PreferencesStore/makeLibraryDefault()``, else Foundation's
  /// `UserDefaults(suiteName:)`. Cost: one lock; the first call for a name makes its store.
  ///
  /// - Parameters:
  ///   - name: The suite's name.
  /// - Returns: The suite, or `nil` for a name the chosen store refuses.
  ///
  /// `let shared = UserDefaults.librarySuite(named: "group.app")`
  public static func librarySuite(named name: String) -> UserDefaults? {
    guard LibraryDefault.shared.standard != nil else { return UserDefaults(suiteName: name) }
    return LibraryDefault.shared.suite(named: name)
  }
}

extension PreferencesStore {
  /// Makes the library's store the instance every API of the library uses when none is
  /// given (`UserDefaults.libraryDefault`, `UserDefaults.librarySuite(named:)`).
  ///
  /// Call once at start-up, before the first read. The trade-off: code that calls
  /// `UserDefaults.standard` directly then reads Foundation's own cache of the same file,
  /// which sees the library's writes only after Foundation reloads it.
  ///
  /// - Returns: The store of the program's standard suite, now the library's default.
  /// - Throws: ``DefaultsError`` when the store cannot be made (see
  ///   ``PreferencesStore/init(suiteName:directory:flushWindow:)``).
  ///
  /// `try PreferencesStore.makeLibraryDefault()`
  @discardableResult
  public static func makeLibraryDefault() throws(DefaultsError) -> PreferencesStore {
    let store = try PreferencesStore(suiteName: nil)
    LibraryDefault.shared.set(standard: store)
    return store
  }
}

/// Holds the library's default instances once the program has chosen the library's store.
final class LibraryDefault: @unchecked Sendable {
  // Both properties are read and written only while holding `lock`.
  private let lock = NSLock()
  private var chosenStandard: PreferencesStore?
  private var suites: [String: PreferencesStore] = [:]

  static let shared = LibraryDefault()

  var standard: UserDefaults? {
    lock.withLock { chosenStandard }
  }

  func set(standard: PreferencesStore) {
    lock.withLock { chosenStandard = standard }
  }

  func suite(named name: String) -> UserDefaults? {
    lock.withLock {
      if let store = suites[name] { return store }
      guard let store = try? PreferencesStore(suiteName: name) else { return nil }
      suites[name] = store
      return store
    }
  }
}
