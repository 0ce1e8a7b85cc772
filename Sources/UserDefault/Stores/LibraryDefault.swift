import Foundation
import PropertyListCodec

extension UserDefaults {
  /// The instance the library uses when none is given: the scoped default inside
  /// ``withDefault(_:operation:)``, else `.standard` (or the store chosen by
  /// ``PreferencesStore/makeLibraryDefault()``). Cost: one lock, maybe a task-local read.
  public static var libraryDefault: UserDefaults {
    ScopedDefault.current ?? LibraryDefault.shared.standard ?? .standard
  }

  /// Runs `operation` with `defaults` as the library's default for this task and its
  /// child tasks: `libraryDefault`, wrappers made without an instance, and the library's
  /// calls on `UserDefaults.standard`. Plain Foundation calls on `.standard` cannot be
  /// redirected. Detached tasks do not inherit it; the innermost scope wins. For tests:
  ///
  /// ```swift
  /// let scratch = PreferencesStore.inMemory()
  /// UserDefaults.withDefault(scratch) {
  ///   UserDefaults.standard[.launchCount] += 1   // written to `scratch`
  /// }
  /// ```
  ///
  /// Cost: a task-local binding; reads pay a flag check, plus a task-local read inside one.
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

  /// ``withDefault(_:operation:)`` for asynchronous code, child tasks included.
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

  /// The library's store for a suite after ``PreferencesStore/makeLibraryDefault()``, else
  /// Foundation's `UserDefaults(suiteName:)`. Cost: one lock; the first call makes it.
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
  /// Makes the library's store the default of every library API, and of the library's
  /// calls on `UserDefaults.standard` (`UserDefaults.standard[.launchCount] += 1` writes to
  /// the store). Call once, before the first read. Plain Foundation calls on
  /// `UserDefaults.standard` (`set(_:forKey:)`, `integer(forKey:)`) cannot be redirected:
  /// they read Foundation's cache of the file, which sees the library's writes only after
  /// Foundation reloads it.
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
