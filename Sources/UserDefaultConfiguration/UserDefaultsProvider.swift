#if Configuration
  public import Configuration
  public import Foundation
  import UserDefault

  /// Stored preferences as a swift-configuration provider: a `ConfigReader` reads a
  /// suite's values, and its watches see the suite change.
  ///
  /// ```swift
  /// let config = ConfigReader(providers: [UserDefaultsProvider(suiteName: "com.example.tool")])
  /// let timeout = config.int(forKey: "http.timeout", default: 30)
  /// ```
  ///
  /// - Keys: a key's components joined with `.` name the stored key (`http.timeout`), in
  ///   the suite or, with `within:`, in the dictionary stored under that name.
  /// - Values: see ``ConversionError`` for what converts to each `ConfigType`.
  /// - Reads go through the library's read path (its search list, registered defaults
  ///   and launch arguments included), one read per lookup, under one lock per provider.
  /// - Watches listen to the library's observers (`UserDefaults.observeChanges(_:)`):
  ///   whatever reaches them reaches a watch, once per change; nothing is observed while
  ///   nothing watches.
  /// - Secrets: every value is returned as not secret; the reader's `isSecret:` marks it.
  @available(Configuration 1.0, *)
  public struct UserDefaultsProvider: Sendable {
    /// Why a stored value did not convert to the type a reader asked for.
    ///
    /// Property-list values map to their content: a string to `.string`; an integer, a
    /// real or a Boolean to `.int` (a real only when whole), `.double` and `.bool` (a
    /// number other than 0 is `true`); data to `.bytes`; an array to the array type of
    /// its elements. Text that reads as the requested type is accepted, as
    /// `EnvironmentVariablesProvider` reads it: `8080` as an integer, `0.5` as a real,
    /// `yes`/`no`/`true`/`false`/`1`/`0` as a Boolean, base64 as bytes, and a
    /// comma-separated list as an array. Anything else (a number read as a string, a date,
    /// a dictionary) throws this error, naming the key, the type and what is stored, never
    /// the stored value.
    public struct ConversionError: Error, CustomStringConvertible, Equatable, Sendable {
      /// The stored name that was read (`http.timeout`).
      public let name: String
      /// The type the reader asked for.
      public let type: ConfigType
      /// What the stored value is (`a date`, `a string`), for the message.
      public let storedKind: String

      /// The message: the key, the requested type and what is stored.
      public var description: String {
        "Config value for key '\(name)' is \(storedKind), which does not convert to \(type.rawValue)."
      }
    }

    /// Names this provider in the reader's access reports:
    /// `UserDefaultsProvider[<suite>]`, and `[<suite> within <name>]` with `within:`.
    public let providerName: String
    private let source: PreferenceSource

    /// A provider over a Foundation instance of `suiteName` (`UserDefaults(suiteName:)`).
    /// Cost: making the instance, as Foundation does.
    ///
    /// - Parameters:
    ///   - suiteName: The suite; `nil` is the standard suite (also what Foundation gives
    ///     for a name it refuses as a suite, such as `NSGlobalDomain`).
    ///   - dictionaryName: Read within the dictionary stored under this name instead of
    ///     the whole suite (Apple's managed app configuration:
    ///     `"com.apple.configuration.managed"`); `nil` reads the suite itself.
    ///
    /// `let provider = UserDefaultsProvider(suiteName: "com.example.tool")`
    public init(suiteName: String? = nil, within dictionaryName: String? = nil) {
      let defaults = suiteName.flatMap { UserDefaults(suiteName: $0) } ?? .standard
      self.init(
        source: PreferenceSource(defaults, within: dictionaryName),
        label: suiteName ?? "standard", within: dictionaryName)
    }

    /// A provider over any instance: a `PreferencesStore` (whose file poll brings other
    /// processes' writes within its poll interval), a Foundation instance, or an in-memory
    /// store for tests.
    ///
    /// - Parameters:
    ///   - defaults: The instance to read; the provider keeps it.
    ///   - dictionaryName: Read within the dictionary stored under this name; `nil` reads
    ///     the suite itself.
    ///
    /// `let provider = UserDefaultsProvider(defaults: try PreferencesStore(suiteName: "com.example.tool"))`
    public init(defaults: UserDefaults, within dictionaryName: String? = nil) {
      let label = defaults is PreferencesStore ? "store" : "instance"
      self.init(
        source: PreferenceSource(defaults, within: dictionaryName), label: label,
        within: dictionaryName)
    }

    private init(source: PreferenceSource, label: String, within dictionaryName: String?) {
      self.source = source
      self.providerName =
        "UserDefaultsProvider[\(label)\(dictionaryName.map { " within \($0)" } ?? "")]"
    }

    /// The stored name of `key`: its components joined with `.`.
    static func storedName(_ key: AbsoluteConfigKey) -> String {
      key.components.joined(separator: ".")
    }

    /// The one lookup of every path: a stored value (or none) as `type`.
    static func lookup(_ stored: PreferenceValue?, name: String, type: ConfigType)
      throws(ConversionError)
      -> LookupResult
    {
      guard let stored else { return LookupResult(encodedKey: name, value: nil) }
      return LookupResult(
        encodedKey: name,
        value: ConfigValue(try stored.content(as: type, name: name), isSecret: false))
    }
  }

  @available(Configuration 1.0, *)
  extension UserDefaultsProvider: ConfigProvider {
    /// The stored value of `key` as `type`, read now. Cost: a lock, a read, a conversion.
    ///
    /// - Parameters:
    ///   - key: The key; its components joined with `.` name the stored key.
    ///   - type: The type the reader asks for.
    /// - Returns: The value, or a result with no value when nothing is stored.
    /// - Throws: ``ConversionError`` when the stored value does not convert to `type`.
    ///
    /// `let result = try provider.value(forKey: ["http", "timeout"], type: .int)`
    public func value(forKey key: AbsoluteConfigKey, type: ConfigType) throws -> LookupResult {
      let name = Self.storedName(key)
      return try Self.lookup(source.value(named: name), name: name, type: type)
    }

    /// As ``value(forKey:type:)``: the store is already in memory, so nothing is fetched.
    ///
    /// - Parameters:
    ///   - key: The key; its components joined with `.` name the stored key.
    ///   - type: The type the reader asks for.
    /// - Returns: The value, or a result with no value when nothing is stored.
    /// - Throws: ``ConversionError`` when the stored value does not convert to `type`.
    ///
    /// `let result = try await provider.fetchValue(forKey: ["http", "timeout"], type: .int)`
    public func fetchValue(forKey key: AbsoluteConfigKey, type: ConfigType) async throws
      -> LookupResult
    {
      try value(forKey: key, type: type)
    }

    /// Hands `updatesHandler` the current value of `key` as `type`, then the value after
    /// each change of it (a change that converts to the same result is not sent again).
    /// Observes the suite only while `updatesHandler` runs. A change arrives on the
    /// writing thread for writes in this process, within the store's poll interval for
    /// other processes' writes to a `PreferencesStore`. Cost per change of any key of
    /// the suite: a name comparison; of this key, a read and a conversion.
    ///
    /// - Parameters:
    ///   - key: The key; its components joined with `.` name the stored key.
    ///   - type: The type the reader asks for.
    ///   - updatesHandler: Given the results; the watch ends when it returns.
    /// - Returns: What `updatesHandler` returns.
    /// - Throws: What `updatesHandler` throws.
    ///
    /// `try await provider.watchValue(forKey: ["http", "timeout"], type: .int) { for await r in $0 { print(r) } }`
    nonisolated(nonsending) public func watchValue<Return: ~Copyable>(
      forKey key: AbsoluteConfigKey, type: ConfigType,
      updatesHandler:
        nonisolated(nonsending) (
          _ updates: ConfigUpdatesAsyncSequence<Result<LookupResult, any Error>, Never>
        ) async throws -> Return
    ) async throws -> Return {
      let name = Self.storedName(key)
      let (stream, continuation) = AsyncStream<Result<LookupResult, any Error>>.makeStream(
        bufferingPolicy: .bufferingNewest(1))
      let source = self.source
      let feed = LatestOnly<ValueOutcome> { outcome in continuation.yield(outcome.result) }
      let send: @Sendable () -> Void = {
        feed.send { ValueOutcome(source.value(named: name), name: name, type: type) }
      }
      let observation = source.observeChanges(affecting: name) { send() }
      send()  // after observing, so no change falls between the two
      defer {
        observation.cancel()
        continuation.finish()
      }
      return try await updatesHandler(ConfigUpdatesAsyncSequence(stream))
    }

    /// The suite's values now, in a snapshot that does not change. Cost: a read of every
    /// key of the suite (or of the dictionary named by `within:`), copied out.
    ///
    /// - Returns: The snapshot.
    ///
    /// `let timeout = try provider.snapshot().value(forKey: ["http", "timeout"], type: .int)`
    public func snapshot() -> any ConfigSnapshot {
      UserDefaultsSnapshot(providerName: providerName, values: source.allValues())
    }

    /// Hands `updatesHandler` a snapshot now, then a new one after each change of the
    /// suite (of the dictionary named by `within:`). Observes the suite only while
    /// `updatesHandler` runs. Cost per change: a read of every key.
    ///
    /// - Parameters:
    ///   - updatesHandler: Given the snapshots; the watch ends when it returns.
    /// - Returns: What `updatesHandler` returns.
    /// - Throws: What `updatesHandler` throws.
    ///
    /// `try await provider.watchSnapshot { for await snapshot in $0 { print(snapshot) } }`
    nonisolated(nonsending) public func watchSnapshot<Return: ~Copyable>(
      updatesHandler:
        nonisolated(nonsending) (_ updates: ConfigUpdatesAsyncSequence<any ConfigSnapshot, Never>)
        async throws
        -> Return
    ) async throws -> Return {
      let (stream, continuation) = AsyncStream<any ConfigSnapshot>.makeStream(
        bufferingPolicy: .bufferingNewest(1))
      let source = self.source
      let providerName = self.providerName
      let feed = LatestOnly<UserDefaultsSnapshot> { continuation.yield($0) }
      let send: @Sendable () -> Void = {
        feed.send { UserDefaultsSnapshot(providerName: providerName, values: source.allValues()) }
      }
      let observation = source.observeChanges(affecting: nil) { send() }
      send()
      defer {
        observation.cancel()
        continuation.finish()
      }
      return try await updatesHandler(ConfigUpdatesAsyncSequence(stream))
    }
  }

  @available(Configuration 1.0, *)
  extension UserDefaultsProvider: CustomStringConvertible {
    /// The provider's name.
    public var description: String { providerName }
  }

  /// A watched value, comparable so that a change that reads the same is not sent twice.
  @available(Configuration 1.0, *)
  struct ValueOutcome: Equatable, Sendable {
    let outcome: Result<LookupResult, UserDefaultsProvider.ConversionError>

    init(_ stored: PreferenceValue?, name: String, type: ConfigType) {
      do throws(UserDefaultsProvider.ConversionError) {
        outcome = .success(try UserDefaultsProvider.lookup(stored, name: name, type: type))
      } catch {
        outcome = .failure(error)
      }
    }

    var result: Result<LookupResult, any Error> { outcome.mapError { $0 } }
  }
#endif
