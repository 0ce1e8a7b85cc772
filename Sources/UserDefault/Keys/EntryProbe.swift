import Foundation
import PropertyListCodec

/// Finds the key and the default of an entry declared on `UserDefaults`, which a key
/// path alone does not carry.
///
/// The getter runs once with a probe installed: the ``UserDefaultable`` helpers record
/// their key and can read as absent, so it returns its default. Entries bypassing the
/// helpers report no key. Cost: one run of the getter per question.
@usableFromInline
enum EntryProbe {
  final class Probe: Sendable {
    let pretendsAbsent: Bool
    private let recordedKey = Lock<String?>(nil)

    init(pretendsAbsent: Bool) { self.pretendsAbsent = pretendsAbsent }

    func record(_ key: String) {
      recordedKey.withLock { if $0 == nil { $0 = key } }
    }

    var key: String? { recordedKey.withLock { $0 } }
  }

  private static let installed = CountedTaskLocal<Probe>()

  /// When false, no entry read needs to look.
  @usableFromInline
  static var isInstalledAnywhere: Bool { installed.isSetAnywhere }

  static var current: Probe? { installed.current }

  private static func probing<Result>(_ probe: Probe, _ body: () -> Result) -> Result {
    installed.with(probe, body)
  }

  static func key<Value>(of keyPath: KeyPath<UserDefaults, Value>, in defaults: UserDefaults)
    -> String
  {
    let probe = Probe(pretendsAbsent: true)
    probing(probe) { _ = defaults[keyPath: keyPath] }
    return probe.key ?? String(describing: keyPath)
  }

  static func defaultValue<Value>(
    of keyPath: KeyPath<UserDefaults, Value>, in defaults: UserDefaults
  )
    -> Value
  {
    probing(Probe(pretendsAbsent: true)) { defaults[keyPath: keyPath] }
  }
}
