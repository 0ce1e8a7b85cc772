import Foundation
import PropertyListCodec

extension UserDefaults {
  /// The instance the library's wrappers and `SafeDefaults` use when none is given: the
  /// task's scoped default inside ``withDefault(_:operation:)``, else `.standard`, unless
  /// ``PreferencesStore/makeLibraryDefault()`` was called.
  /// Cost: one lock (and, while a scope is open anywhere, a task-local read).
  public static var libraryDefault: UserDefaults {
    ScopedDefault.current ?? LibraryDefault.shared.standard ?? .standard
  }

  /// Runs `operation` with `defaults` as the default of every API of the library, for
  /// this task and the tasks it starts: `libraryDefault`, the wrappers and `SafeDefaults`
  /// made without an instance, and every typed-key subscript, `observe`, `updates`,
  /// `reset`, `isDefaultValue` and migration called on `UserDefaults.standard`.
  ///
  /// Plain Foundation calls on `.standard` (`set(_:forKey:)`, `object(forKey:)`) are
  /// Foundation's own and cannot be redirected: they still reach the standard suite. A
  /// detached task (`Task.detached`) does not inherit the scope; scopes nest, and the
  /// innermost wins. Made for tests (see `UserDefaultTesting`'s `.isolatedDefaults`),
  /// with an in-memory store:
  ///
  /// ```swift
  /// let scratch = PreferencesStore.inMemory()
  /// UserDefaults.withDefault(scratch) {
  ///   UserDefaults.standard[.launchCount] += 1   // written to `scratch`
  /// }
  /// ```
  ///
  /// Cost: a task-local binding for the scope. Outside every scope a read of any instance
  /// pays one check of a flag; inside one, reads of `.standard` also read the task-local.
  ///
  /// - Parameters:
  ///   - defaults: The instance to use as the default.
  ///   - operation: The code to run.
  /// - Returns: What `operation` returns.
  /// - Throws: What `operation` throws.
  public static func withDefault<Result>(
    _ defaults: UserDefaults, operation: () throws -> Result
  ) rethrows -> Result {
    try ScopedDefault.with(defaults, operation)
  }

  /// ``withDefault(_:operation:)`` for asynchronous code: the scope covers the operation
  /// and every child task it starts (`async let`, task groups).
  ///
  /// - Parameters:
  ///   - defaults: The instance to use as the default.
  ///   - isolation: The actor the operation runs on; the caller's, by default.
  ///   - operation: The code to run.
  /// - Returns: What `operation` returns.
  /// - Throws: What `operation` throws.
  ///
  /// `await UserDefaults.withDefault(.inMemory()) { await model.refresh() }`
  public static func withDefault<Result>(
    _ defaults: UserDefaults, isolation: isolated (any Actor)? = #isolation,
    operation: () async throws -> Result
  ) async rethrows -> Result {
    try await ScopedDefault.with(defaults, isolation: isolation, operation)
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
  ///   ``PreferencesStore/init(suiteName:directory:flushWindow:format:)``).
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
final class LibraryDefault: Sendable {
  private struct State {
    var chosenStandard: PreferencesStore?
    var suites: [String: PreferencesStore] = [:]
  }
  private let state = Lock(State())

  static let shared = LibraryDefault()

  var standard: UserDefaults? {
    state.withLock { $0.chosenStandard }
  }

  func set(standard: PreferencesStore) {
    state.withLock { $0.chosenStandard = standard }
  }

  func suite(named name: String) -> UserDefaults? {
    state.withLock { state in
      if let store = state.suites[name] { return store }
      guard let store = try? PreferencesStore(suiteName: name) else { return nil }
      state.suites[name] = store
      return store
    }
  }
}
