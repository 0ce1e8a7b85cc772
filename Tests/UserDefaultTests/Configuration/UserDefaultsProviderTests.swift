#if Configuration
  import Configuration
  import Foundation
  import Testing

  @testable import UserDefault
  @testable import UserDefaultConfiguration

  /// `UserDefaultsProvider` through swift-configuration's `ConfigReader`, on a Foundation
  /// instance and on the library's store. Built only with the `Configuration` trait
  /// (scripts/check-configuration-provider.sh runs them).
  @Suite("UserDefaultsProvider: preferences as a configuration provider")
  struct UserDefaultsProviderTests {
    /// The instances a provider is tested on.
    enum Backend: String, CaseIterable, CustomTestStringConvertible {
      case foundation, store
      var testDescription: String { rawValue }

      /// A fresh suite; `keep` holds what must live as long as the test.
      func make() -> (defaults: UserDefaults, keep: AnyObject) {
        switch self {
        case .foundation:
          let suite = TestSuite()
          return (suite.defaults, suite)
        case .store:
          let store = PreferencesStore.inMemory()
          return (store, store)
        }
      }
    }

    /// Every `ConfigType` from the property-list value that holds it.
    @available(Configuration 1.0, *)
    static var propertyListValues: [(ConfigType, Any, ConfigContent)] {
      [
        (.string, "hello", .string("hello")),
        (.int, 8080, .int(8080)),
        (.double, 0.5, .double(0.5)),
        (.bool, true, .bool(true)),
        (.bytes, Data([1, 2, 255]), .bytes([1, 2, 255])),
        (.stringArray, ["a", "b"], .stringArray(["a", "b"])),
        (.intArray, [1, 2], .intArray([1, 2])),
        (.doubleArray, [0.5, 1.5], .doubleArray([0.5, 1.5])),
        (.boolArray, [true, false], .boolArray([true, false])),
        (.byteChunkArray, [Data([1]), Data([2, 3])], .byteChunkArray([[1], [2, 3]])),
      ]
    }

    @available(Configuration 1.0, *)
    @Test(
      "Every ConfigType reads from the property-list value holding it", arguments: Backend.allCases)
    func everyConfigType(_ backend: Backend) throws {
      let (defaults, keep) = backend.make()
      let provider = UserDefaultsProvider(defaults: defaults)
      for (type, stored, expected) in Self.propertyListValues {
        let name = uniqueKey("value.\(type.rawValue)")
        try defaults.store(stored, forKey: name)
        let result = try provider.value(
          forKey: AbsoluteConfigKey(name.split(separator: ".").map(String.init)), type: type)
        #expect(result.value?.content == expected, "\(type)")
        #expect(result.encodedKey == name)
        #expect(result.value?.isSecret == false)
      }
      withExtendedLifetime(keep) {}
    }

    /// Text that reads as the requested type, as the environment-variables provider reads
    /// it; numbers across their kinds, as the property-list provider reads them.
    @available(Configuration 1.0, *)
    static var conversions: [(Any, ConfigType, ConfigContent)] {
      [
        ("8080", .int, .int(8080)),
        ("-3", .int, .int(-3)),
        ("0.75", .double, .double(0.75)),
        ("yes", .bool, .bool(true)),
        ("FALSE", .bool, .bool(false)),
        ("0", .bool, .bool(false)),
        ("AQL/", .bytes, .bytes([1, 2, 255])),
        ("a, b,c", .stringArray, .stringArray(["a", "b", "c"])),
        ("80,443", .intArray, .intArray([80, 443])),
        ("0.5,2", .doubleArray, .doubleArray([0.5, 2])),
        ("true,no", .boolArray, .boolArray([true, false])),
        ("AQ==,AgM=", .byteChunkArray, .byteChunkArray([[1], [2, 3]])),
        (["80", "443"], .intArray, .intArray([80, 443])),
        (["1.5", "2"], .doubleArray, .doubleArray([1.5, 2])),
        (["yes", "0"], .boolArray, .boolArray([true, false])),
        (3, .double, .double(3)),
        (2.0, .int, .int(2)),
        (true, .int, .int(1)),
        (0, .bool, .bool(false)),
        (0.5, .bool, .bool(true)),
        ([1, 2], .doubleArray, .doubleArray([1, 2])),
      ]
    }

    @available(Configuration 1.0, *)
    @Test(
      "Text that reads as the requested type converts, and numbers across kinds",
      arguments: Backend.allCases)
    func conversions(_ backend: Backend) throws {
      let (defaults, keep) = backend.make()
      let provider = UserDefaultsProvider(defaults: defaults)
      for (index, (stored, type, expected)) in Self.conversions.enumerated() {
        let name = uniqueKey("conversion\(index)")
        try defaults.store(stored, forKey: name)
        let result = try provider.value(forKey: AbsoluteConfigKey([name]), type: type)
        #expect(result.value?.content == expected, "\(stored) as \(type)")
      }
      withExtendedLifetime(keep) {}
    }

    /// What does not read as the type, as swift-configuration's own providers refuse it.
    @available(Configuration 1.0, *)
    static var mismatches: [(Any, ConfigType, String)] {
      [
        ("many", .int, "a string"),
        ("1.5", .int, "a string"),
        (1.5, .int, "a real number"),
        (8080, .string, "an integer"),
        (true, .string, "a Boolean"),
        ("maybe", .bool, "a string"),
        ("not base64!", .bytes, "a string"),
        (Date(timeIntervalSinceReferenceDate: 0), .string, "a date"),
        (["a": 1], .int, "a dictionary"),
        (["a": 1], .stringArray, "a dictionary"),
        ([1, 2], .stringArray, "an array"),
        (["1", "x"], .intArray, "an array"),
        (Data([1]), .string, "data"),
      ]
    }

    @available(Configuration 1.0, *)
    @Test(
      "Anything else is a conversion error naming key, type and kind, not the value",
      arguments: Backend.allCases)
    func conversionErrors(_ backend: Backend) throws {
      let (defaults, keep) = backend.make()
      let provider = UserDefaultsProvider(defaults: defaults)
      for (index, (stored, type, kind)) in Self.mismatches.enumerated() {
        let name = uniqueKey("mismatch\(index)")
        try defaults.store(stored, forKey: name)
        let error = #expect(throws: UserDefaultsProvider.ConversionError.self) {
          try provider.value(forKey: AbsoluteConfigKey([name]), type: type)
        }
        #expect(error == .init(name: name, type: type, storedKind: kind), "\(stored) as \(type)")
      }
      let secret = uniqueKey("secret")
      try defaults.store("hunter2", forKey: secret)
      let error = #expect(throws: UserDefaultsProvider.ConversionError.self) {
        try provider.value(forKey: AbsoluteConfigKey([secret]), type: .int)
      }
      #expect(error.map { "\($0)" }?.contains("hunter2") == false)
      withExtendedLifetime(keep) {}
    }

    @available(Configuration 1.0, *)
    @Test(
      "A missing key has no value, and the reader gives its default", arguments: Backend.allCases)
    func missingKey(_ backend: Backend) throws {
      let (defaults, keep) = backend.make()
      let provider = UserDefaultsProvider(defaults: defaults)
      let name = uniqueKey("missing")
      let result = try provider.value(forKey: AbsoluteConfigKey([name]), type: .int)
      #expect(result.value == nil && result.encodedKey == name)
      let config = ConfigReader(provider: provider)
      #expect(config.int(forKey: ConfigKey(name), default: 30) == 30)
      #expect(config.string(forKey: ConfigKey(name)) == nil)
      // A conversion error gives the default too, as with the reader's other providers.
      try defaults.store("many", forKey: name)
      #expect(config.int(forKey: ConfigKey(name), default: 30) == 30)
      withExtendedLifetime(keep) {}
    }

    @available(Configuration 1.0, *)
    @Test("Reads look where typed reads look: registered defaults too", arguments: Backend.allCases)
    func registeredDefaults(_ backend: Backend) throws {
      let (defaults, keep) = backend.make()
      let name = uniqueKey("registered")
      defaults.register(defaults: [name: 7])
      let provider = UserDefaultsProvider(defaults: defaults)
      #expect(
        try provider.value(forKey: AbsoluteConfigKey([name]), type: .int).value?.content == .int(7))
      #expect(
        try provider.snapshot().value(forKey: AbsoluteConfigKey([name]), type: .int).value?.content
          == .int(7))
      try defaults.store(8, forKey: name)
      #expect(
        try provider.value(forKey: AbsoluteConfigKey([name]), type: .int).value?.content == .int(8))
      withExtendedLifetime(keep) {}
    }

    @available(Configuration 1.0, *)
    @Test("A key's components joined with '.' name the stored key", arguments: Backend.allCases)
    func keysJoinWithDots(_ backend: Backend) throws {
      let (defaults, keep) = backend.make()
      let prefix = uniqueKey("http")
      try defaults.store(45, forKey: "\(prefix).timeout")
      let config = ConfigReader(provider: UserDefaultsProvider(defaults: defaults))
      #expect(config.int(forKey: ConfigKey("\(prefix).timeout"), default: 30) == 45)
      #expect(config.scoped(to: ConfigKey(prefix)).int(forKey: "timeout", default: 30) == 45)
      withExtendedLifetime(keep) {}
    }

    @available(Configuration 1.0, *)
    @Test(
      "within: reads the entries of one stored dictionary (managed app configuration)",
      arguments: Backend.allCases)
    func withinADictionary(_ backend: Backend) throws {
      let (defaults, keep) = backend.make()
      let managed = uniqueKey("com.apple.configuration.managed")
      try defaults.store(["serverURL": "https://example.com", "http.timeout": 12], forKey: managed)
      try defaults.store(99, forKey: "http.timeout")
      let config = ConfigReader(provider: UserDefaultsProvider(defaults: defaults, within: managed))
      #expect(config.string(forKey: "serverURL") == "https://example.com")
      #expect(config.int(forKey: "http.timeout", default: 30) == 12)
      #expect(config.int(forKey: "missing", default: 30) == 30)
      withExtendedLifetime(keep) {}
    }

    @available(Configuration 1.0, *)
    @Test("within: a watch follows changes of the dictionary", arguments: Backend.allCases)
    func watchWithinADictionary(_ backend: Backend) async throws {
      let (defaults, keep) = backend.make()
      let managed = uniqueKey("managed")
      try defaults.store(["level": 1], forKey: managed)
      let config = ConfigReader(provider: UserDefaultsProvider(defaults: defaults, within: managed))
      let (values, task) = forwarding(of: Int.self) { yield in
        try await config.watchInt(forKey: "level", default: 0) { updates in
          for await value in updates { yield(value) }
        }
      }
      #expect(await first(of: values, within: .seconds(10)) == 1)
      try defaults.store(["level": 2, "other": 5], forKey: managed)
      #expect(await first(of: values, within: .seconds(10)) == 2)
      defaults.removeValue(forKey: managed)
      #expect(await first(of: values, within: .seconds(10)) == 0)
      task.cancel()
      _ = await task.result
      withExtendedLifetime(keep) {}
    }

    @available(Configuration 1.0, *)
    @Test(
      "A snapshot holds the values of its moment; watchSnapshot sends one per change",
      arguments: Backend.allCases)
    func snapshots(_ backend: Backend) async throws {
      let (defaults, keep) = backend.make()
      let provider = UserDefaultsProvider(defaults: defaults)
      let name = uniqueKey("snap")
      try defaults.store(1, forKey: name)
      let before = provider.snapshot()
      try defaults.store(2, forKey: name)
      #expect(
        try before.value(forKey: AbsoluteConfigKey([name]), type: .int).value?.content == .int(1))
      #expect(
        try provider.snapshot().value(forKey: AbsoluteConfigKey([name]), type: .int).value?.content
          == .int(2))
      #expect(
        try provider.snapshot().value(forKey: AbsoluteConfigKey([uniqueKey()]), type: .int).value
          == nil)

      let (snapshots, task) = forwarding(of: Int?.self) { yield in
        try await provider.watchSnapshot { updates in
          for await snapshot in updates {
            yield(
              try snapshot.value(forKey: AbsoluteConfigKey([name]), type: .int).value.flatMap {
                if case .int(let value) = $0.content { value } else { nil }
              })
          }
        }
      }
      #expect(await first(of: snapshots, within: .seconds(10)) == 2)
      try defaults.store(3, forKey: name)
      #expect(await first(of: snapshots, within: .seconds(10)) == 3)
      defaults.removeValue(forKey: name)
      #expect(await first(of: snapshots, within: .seconds(10)) == .some(nil))
      task.cancel()
      _ = await task.result
      withExtendedLifetime(keep) {}
    }

    @available(Configuration 1.0, *)
    @Test(
      "watchValue sends the value, then each change once; the suite is observed only while watched",
      arguments: Backend.allCases)
    func watchInProcess(_ backend: Backend) async throws {
      let (defaults, keep) = backend.make()
      let provider = UserDefaultsProvider(defaults: defaults)
      let name = uniqueKey("watched")
      let hub = defaults.access.suite.hub
      #expect(!hub.hasListeners(for: name))
      let (results, task) = forwarding(of: String.self) { yield in
        try await provider.watchValue(forKey: AbsoluteConfigKey([name]), type: .int) { updates in
          for await result in updates {
            switch result {
            case .success(let lookup): yield(lookup.value.map { "\($0.content)" } ?? "none")
            case .failure(let error): yield("error: \(error)")
            }
          }
        }
      }
      #expect(await first(of: results, within: .seconds(10)) == "none")
      #expect(hub.hasListeners(for: name))
      try defaults.store(5, forKey: name)
      #expect(await first(of: results, within: .seconds(10)) == "int(5)")
      try defaults.store(uniqueKey(), forKey: uniqueKey())  // another key: nothing sent
      try defaults.store("6", forKey: name)  // reads as 6: sent
      #expect(await first(of: results, within: .seconds(10)) == "int(6)")
      try defaults.store(6, forKey: name)  // reads as 6 again: not sent
      try defaults.store("x", forKey: name)
      #expect(await first(of: results, within: .seconds(10))?.hasPrefix("error: ") == true)
      defaults.removeValue(forKey: name)
      #expect(await first(of: results, within: .seconds(10)) == "none")
      task.cancel()
      _ = await task.result
      #expect(!hub.hasListeners(for: name))
      withExtendedLifetime(keep) {}
    }

    @available(Configuration 1.0, *)
    @Test(
      "ConfigReader.watchInt follows typed writes through the library", arguments: Backend.allCases)
    func readerWatchesTypedWrites(_ backend: Backend) async throws {
      let (defaults, keep) = backend.make()
      let key = UserDefaults.Key<Int>(uniqueKey("timeout"), default: 0)
      let config = ConfigReader(provider: UserDefaultsProvider(defaults: defaults))
      let (values, task) = forwarding(of: Int.self) { yield in
        try await config.watchInt(forKey: ConfigKey(key.name), default: 30) { updates in
          for await value in updates { yield(value) }
        }
      }
      #expect(await first(of: values, within: .seconds(10)) == 30)
      defaults[key] = 45
      #expect(await first(of: values, within: .seconds(10)) == 45)
      defaults[key] = 46
      #expect(await first(of: values, within: .seconds(10)) == 46)
      task.cancel()
      _ = await task.result
      withExtendedLifetime(keep) {}
    }

    @available(Configuration 1.0, *)
    @Test("Values the defaults tool writes read through ConfigReader", .linuxFiles)
    func valuesTheToolWrites() throws {
      let directory = TemporaryDirectory()
      let file = directory.path + "/tool"
      for arguments in [
        ["port", "8080"], ["name", "-string", "Ada"], ["verbose", "-bool", "true"],
        ["ratio", "-float", "0.75"], ["hosts", "-array", "a.example", "b.example"],
        ["retries", "-int", "3"], ["ports", "-array", "80", "443"],
      ] {
        let result = try ChildProcess.run(
          "defaults", ["write", file] + arguments,
          environment: ["XDG_CONFIG_HOME": directory.path, "HOME": directory.path])
        #expect(result.status == 0, "\(arguments): \(result.error)")
      }
      let store = try PreferencesStore(suiteName: "tool", directory: directory.path)
      let config = ConfigReader(provider: UserDefaultsProvider(defaults: store))
      #expect(config.int(forKey: "port", default: 0) == 8080)
      #expect(config.string(forKey: "port") == "8080")
      #expect(config.string(forKey: "name") == "Ada")
      #expect(config.bool(forKey: "verbose", default: false) == true)
      #expect(config.double(forKey: "ratio", default: 0) == 0.75)
      #expect(config.stringArray(forKey: "hosts", default: []) == ["a.example", "b.example"])
      #expect(config.int(forKey: "retries", default: 0) == 3)
      #expect(config.intArray(forKey: "ports", default: []) == [80, 443])
      #expect(config.int(forKey: "missing", default: 30) == 30)
      try store.flush()
    }

    @available(Configuration 1.0, *)
    @Test(
      "Another process's defaults write reaches watchInt on a store within the poll interval",
      .linuxFiles)
    func watchOtherProcessOnAStore() async throws {
      let directory = TemporaryDirectory()
      let store = try PreferencesStore(suiteName: "tool", directory: directory.path)
      let config = ConfigReader(provider: UserDefaultsProvider(defaults: store))
      let (values, task) = forwarding(of: Int.self) { yield in
        try await config.watchInt(forKey: "http.timeout", default: 30) { updates in
          for await value in updates { yield(value) }
        }
      }
      #expect(await first(of: values, within: .seconds(10)) == 30)
      let clock = ContinuousClock()
      var latencies: [Duration] = []
      for value in [45, 46] {
        let written = try ChildProcess.run(
          "defaults", ["write", directory.path + "/tool", "http.timeout", "-int", "\(value)"],
          environment: ["XDG_CONFIG_HOME": directory.path, "HOME": directory.path])
        #expect(written.status == 0, "\(written.error)")
        let start = clock.now
        // The store polls its file every PreferencesStore.pollInterval (200 ms); 10 s bounds it.
        #expect(await first(of: values, within: .seconds(10)) == value)
        latencies.append(clock.now - start)
      }
      print("other-process write to watchInt, after the writer exited: \(latencies)")
      #expect(latencies.allSatisfy { $0 < .seconds(2) }, "\(latencies)")
      task.cancel()
      _ = await task.result
      try store.flush()
    }

    // Another process's write reaching watchInt on a Foundation instance needs the
    // library's saving, which this test process turns off: scripts/check-configuration-
    // provider.sh watches it from a consumer process (and on a store), with its latency.

    @available(Configuration 1.0, *)
    @Test("The provider's name says which suite it reads")
    func providerName() {
      #expect(
        UserDefaultsProvider(suiteName: "com.example.tool").providerName
          == "UserDefaultsProvider[com.example.tool]")
      #expect(UserDefaultsProvider().providerName == "UserDefaultsProvider[standard]")
      #expect(
        UserDefaultsProvider(defaults: PreferencesStore.inMemory(), within: "m").providerName
          == "UserDefaultsProvider[store within m]")
    }
  }

  /// Runs `watch` in a task that hands each value to the returned stream, for
  /// `first(of:within:)`; cancel the task to end the watch.
  @available(Configuration 1.0, *)
  func forwarding<Value: Sendable>(
    of _: Value.Type,
    _ watch: @escaping @Sendable (_ yield: @escaping @Sendable (Value) -> Void) async throws -> Void
  ) -> (AsyncStream<Value>, Task<Void, any Error>) {
    let (stream, continuation) = AsyncStream<Value>.makeStream()
    let task = Task {
      defer { continuation.finish() }
      try await watch { continuation.yield($0) }
    }
    return (stream, task)
  }
#endif
