import DefaultEntry
import Foundation
import SafeDefaultsKit
import UserDefault

/// The enum-keyed front door on the peers' suite.
struct PeerSafeDefaults: SafeDefaults {
  enum Keys: String, DefaultsKey {
    case int = "peers.int"
    case string = "peers.string"
  }
  let userDefaults: UserDefaults
}

extension UserDefaults {
  @DefaultEntry("peers.int", default: 0)
  var peersEntryInt: Int

  @DefaultEntry("peers.string", default: "")
  var peersEntryString: String

  @DefaultEntry<Profile>("peers.profile")
  var peersEntryProfile: Profile?
}

/// Every surface of the library's on a Foundation instance, against the thin key the peer
/// libraries are, measured as users' code runs:
///
/// - a suite of 1,000 filler keys, loaded from its file;
/// - each contender's operation runs as repetitions of about 30 ms, the contenders
///   interleaved (in an order rotated each round), 7 rounds, the median of the rounds;
/// - an Int write writes the next value of a counter (a different value each call) to
///   the key that the same round's Int read of that contender has just read;
/// - after each repetition of a writing operation, untimed, the suite is synchronized and
///   the library's pending saves are made (``FoundationSaving/saveNow()``).
///
/// Every contender reads and writes the same three keys: Foundation's table of a suite is
/// a hash table, and a lookup's cost depends on where a name lands in it (figures in the
/// Performance article), so names of their own would measure the names. (The library
/// reports `SafeDefaults`' keys, declared as `Any`, as colliding with the typed ones:
/// expected here.) Ratios are the median over the rounds of each round's repetition over
/// the thin key's.
enum PeersProtocol {
  static let suiteName = "peers"
  static let fillerKeys = 1_000

  /// One contender's operations; `nil` where its surface has no such operation.
  struct Contender {
    let name: String
    let intRead: () -> Void
    let intWrite: () -> Void
    let stringRead: () -> Void
    let codableRead: (() -> Void)?
    let codableWrite: (() -> Void)?
  }

  /// The operations in the order a round runs them: the Int write after the Int read.
  static let operations = [
    "Int read", "Int write", "String read", "Codable read", "Codable write",
  ]

  static func operation(_ index: Int, of contender: Contender) -> (() -> Void)? {
    switch index {
    case 0: contender.intRead
    case 1: contender.intWrite
    case 2: contender.stringRead
    case 3: contender.codableRead
    default: contender.codableWrite
    }
  }

  static func isWriting(_ index: Int) -> Bool { index == 1 || index == 4 }

  /// Runs the protocol on `defaults` and adds a row per operation and contender to
  /// `report`, each against the thin key's timing of that operation.
  static func run(
    on defaults: UserDefaults, rounds: Int, repetitionBudget: Double, report: Report
  ) {
    let profile = Profile(name: "Ada Lovelace", age: 36, email: "ada@example.com")
    var counter = 0
    func next() -> Int {
      counter += 1
      return counter
    }
    func nextProfile() -> Profile {
      Profile(name: "Ada", age: next(), email: "ada@example.com")
    }

    let thinInt = ThinKey("peers.int", default: 0)
    let thinString = ThinKey("peers.string", default: "")
    let thinProfile = ThinCodableKey<Profile>(name: "peers.profile")
    thinInt.set(42, in: defaults)
    thinString.set("a preference string", in: defaults)
    thinProfile.set(profile, in: defaults)

    let typedInt = UserDefaults.Key<Int>("peers.int", default: 0)
    let typedString = UserDefaults.Key<String>("peers.string", default: "")
    let typedProfile = UserDefaults.Key<Profile?>("peers.profile")
    defaults[typedInt] = 42
    defaults[typedString] = "a preference string"
    defaults[typedProfile] = profile

    let named = NamedWrappers(defaults)
    named.int = 42
    named.string = "a preference string"
    named.profile = profile

    let keyed = KeyedWrappers(
      int: UserDefault(typedInt, defaults: defaults),
      string: UserDefault(typedString, defaults: defaults),
      profile: UserDefault(typedProfile, defaults: defaults))
    keyed.int = 42
    keyed.string = "a preference string"
    keyed.profile = profile

    let wrapper = Wrappers(defaults)
    wrapper.int = 42
    wrapper.string = "a preference string"
    wrapper.profile = profile

    defaults.peersEntryInt = 42
    defaults.peersEntryString = "a preference string"
    defaults.peersEntryProfile = profile

    let safe = PeerSafeDefaults(userDefaults: defaults)
    safe.set(42, forKey: .int)
    safe.set("a preference string", forKey: .string)
    // One stored form on both sides (JSON text), or one side would read nothing, cheaply.
    precondition(thinProfile.value(in: defaults) == profile, "the thin key reads no profile")
    thinProfile.set(profile, in: defaults)
    precondition(defaults[typedProfile] == profile, "the library reads no profile")

    let contenders = [
      Contender(
        name: "thin key (the peers)",
        intRead: { consume(thinInt.value(in: defaults)) },
        intWrite: { thinInt.set(next(), in: defaults) },
        stringRead: { consume(thinString.value(in: defaults)) },
        codableRead: { consume(thinProfile.value(in: defaults)) },
        codableWrite: { thinProfile.set(nextProfile(), in: defaults) }),
      Contender(
        name: "typed key",
        intRead: { consume(defaults[typedInt]) },
        intWrite: { defaults[typedInt] = next() },
        stringRead: { consume(defaults[typedString]) },
        codableRead: { consume(defaults[typedProfile]) },
        codableWrite: { defaults[typedProfile] = nextProfile() }),
      Contender(
        name: "@UserDefault string key",
        intRead: { consume(named.int) },
        intWrite: { named.int = next() },
        stringRead: { consume(named.string) },
        codableRead: { consume(named.profile) },
        codableWrite: { named.profile = nextProfile() }),
      Contender(
        name: "@UserDefault typed key",
        intRead: { consume(keyed.int) },
        intWrite: { keyed.int = next() },
        stringRead: { consume(keyed.string) },
        codableRead: { consume(keyed.profile) },
        codableWrite: { keyed.profile = nextProfile() }),
      Contender(
        name: "UserDefaultsWrapper",
        intRead: { consume(wrapper.int) },
        intWrite: { wrapper.int = next() },
        stringRead: { consume(wrapper.string) },
        codableRead: { consume(wrapper.profile) },
        codableWrite: { wrapper.profile = nextProfile() }),
      Contender(
        name: "@DefaultEntry",
        intRead: { consume(defaults.peersEntryInt) },
        intWrite: { defaults.peersEntryInt = next() },
        stringRead: { consume(defaults.peersEntryString) },
        codableRead: { consume(defaults.peersEntryProfile) },
        codableWrite: { defaults.peersEntryProfile = nextProfile() }),
      Contender(
        name: "SafeDefaults",
        intRead: { consume(safe.integer(forKey: .int)) },
        intWrite: { safe.set(next(), forKey: .int) },
        stringRead: { consume(safe.string(forKey: .string)) },
        codableRead: nil, codableWrite: nil),
    ]

    let stopwatch = Stopwatch(repetitions: rounds, repetitionBudget: repetitionBudget)
    /// Untimed, after each repetition of a writing operation.
    func settle() {
      defaults.synchronize()
      FoundationSaving.saveNow()
    }
    // Calibrated once, before the rounds, each call count filling about one budget; or a
    // fixed count, for instruction counts (`valgrind --tool=callgrind`), where timing lies.
    let fixedCalls = ProcessInfo.processInfo.environment["USERDEFAULT_BENCHMARK_PEER_CALLS"]
      .flatMap { Int($0) }
    var iterations: [[Int]] = []
    for contender in contenders {
      iterations.append(
        operations.indices.map { index in
          guard let body = operation(index, of: contender) else { return 0 }
          let count = fixedCalls ?? stopwatch.calibrate(body, maxIterations: 1_000_000)
          if isWriting(index) { settle() }
          return count
        })
    }
    var samples = Array(
      repeating: Array(repeating: [Double](), count: operations.count), count: contenders.count)
    for round in 0..<rounds {
      for index in operations.indices {
        for step in contenders.indices {
          let which = (step + round) % contenders.count
          guard let body = operation(index, of: contenders[which]) else { continue }
          let count = iterations[which][index]
          samples[which][index].append(stopwatch.run(count, body))
          if isWriting(index) { settle() }
        }
      }
    }
    // Each round's repetition over the thin key's of the same round, the median of those:
    // a busy spell moves one round's ratio, where it could move one side's median alone.
    for index in operations.indices {
      let thinCalls = Double(iterations[0][index])
      let thin = stopwatch.timing(samples[0][index], iterations: iterations[0][index])
      for which in contenders.indices where !samples[which][index].isEmpty {
        let calls = Double(iterations[which][index])
        let ratios = zip(samples[which][index], samples[0][index]).map {
          ($0 / calls) / ($1 / thinCalls)
        }
        report.add(
          ResultRow(
            benchmark: "peers: \(operations[index]), \(contenders[which].name)",
            size: fillerKeys,
            Comparison(
              library: stopwatch.timing(
                samples[which][index], iterations: iterations[which][index]),
              raw: thin, pairedRatio: ratios.sorted()[ratios.count / 2]),
            rawLabel: "thin key over object(forKey:)/set (the peers)"))
      }
    }
  }
}

/// The string-key `@UserDefault`, as `@UserDefault("k", defaultValue:, defaults:)`.
private struct NamedWrappers {
  @UserDefault var int: Int
  @UserDefault var string: String
  @UserDefault var profile: Profile?

  init(_ defaults: UserDefaults) {
    _int = UserDefault("peers.int", defaultValue: 0, defaults: defaults)
    _string = UserDefault("peers.string", defaultValue: "", defaults: defaults)
    _profile = UserDefault("peers.profile", defaults: defaults)
  }
}

/// The typed-key `@UserDefault`, as `@UserDefault(key, defaults:)`.
private struct KeyedWrappers {
  @UserDefault var int: Int
  @UserDefault var string: String
  @UserDefault var profile: Profile?

  init(int: UserDefault<Int>, string: UserDefault<String>, profile: UserDefault<Profile?>) {
    _int = int
    _string = string
    _profile = profile
  }
}

private struct Wrappers {
  @UserDefaultsWrapper var int: Int
  @UserDefaultsWrapper var string: String
  @UserDefaultsWrapper var profile: Profile?

  init(_ defaults: UserDefaults) {
    _int = UserDefaultsWrapper(key: "peers.int", default: 0, userDefaults: defaults)
    _string = UserDefaultsWrapper(key: "peers.string", default: "", userDefaults: defaults)
    _profile = UserDefaultsWrapper(key: "peers.profile", userDefaults: defaults)
  }
}
