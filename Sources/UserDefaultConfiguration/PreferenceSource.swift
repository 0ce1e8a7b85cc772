#if Configuration
  import Foundation
  import Synchronization  // availability: checked: only the provider, at Configuration 1.0 (macOS 15), uses it
  import UserDefault

  /// The instance a provider reads. Every read and registration of the provider takes
  /// `lock`, so a provider's own uses run one at a time (a lock per read).
  ///
  /// `@unchecked Sendable`: `UserDefaults` is not `Sendable`, yet the caller keeps using
  /// the instance it handed over (`sending` would forbid that). The provider touches it
  /// only under `lock`; the caller's own calls meet it as they meet the library's, which
  /// uses one instance from every thread (Foundation documents `UserDefaults` as
  /// thread-safe, and the library's stores are).
  @available(Configuration 1.0, *)
  final class PreferenceSource: @unchecked Sendable {
    private let lock = NSLock()
    /// Only touched while holding `lock`.
    private let instance: UserDefaults
    /// With `within:`, the stored dictionary whose entries are the provider's keys.
    let dictionaryName: String?

    init(_ defaults: UserDefaults, within dictionaryName: String?) {
      self.instance = defaults
      self.dictionaryName = dictionaryName
    }

    private func withDefaults<Result>(_ body: (UserDefaults) -> Result) -> Result {
      lock.lock()
      defer { lock.unlock() }
      return body(instance)
    }

    /// The value stored under `name`, through the library's read path. With `within:`,
    /// a walk of the whole dictionary.
    func value(named name: String) -> PreferenceValue? {
      withDefaults { defaults in
        guard let dictionaryName else { return Self.read(name, in: defaults) }
        guard case .dictionary(let entries)? = Self.read(dictionaryName, in: defaults) else {
          return nil
        }
        return entries[name]
      }
    }

    /// Every stored name and its value (registered defaults and the rest of the search
    /// list included, as a read finds them). Cost: a read of each key.
    func allValues() -> [String: PreferenceValue] {
      withDefaults { defaults in
        if let dictionaryName {
          guard case .dictionary(let entries)? = Self.read(dictionaryName, in: defaults) else {
            return [:]
          }
          return entries
        }
        var values: [String: PreferenceValue] = [:]
        for name in defaults.dictionaryRepresentation().keys {
          values[name] = Self.read(name, in: defaults)
        }
        return values
      }
    }

    /// Calls `changed` after each change the library's observers see of `name` (`nil`:
    /// of any key; with `within:`, of the dictionary), on the writing thread.
    func observeChanges(affecting name: String?, _ changed: @escaping @Sendable () -> Void)
      -> DefaultsObservation
    {
      let watched = dictionaryName ?? name
      return withDefaults { defaults in
        defaults.observeChanges { changedName in
          if watched == nil || changedName == watched { changed() }
        }
      }
    }

    /// The one read: the library's untyped read, so a provider sees what the library's
    /// typed reads and observers see.
    private static func read(_ name: String, in defaults: UserDefaults) -> PreferenceValue? {
      defaults.value(Any?.self, forKey: name).map(PreferenceValue.init)
    }
  }

  /// Sends a value only when it differs from the last one sent: a change whose result reads
  /// the same, or a change already seen by the first read, is not sent twice. Makes and
  /// sends under one lock, so the last value sent is always the newest read.
  @available(Configuration 1.0, *)
  final class LatestOnly<Value: Equatable & Sendable>: Sendable {
    private let last = Mutex<Value?>(nil)
    private let deliver: @Sendable (Value) -> Void

    init(_ deliver: @escaping @Sendable (Value) -> Void) {
      self.deliver = deliver
    }

    func send(_ make: () -> Value) {
      last.withLock { last in
        let value = make()
        guard value != last else { return }
        last = value
        deliver(value)
      }
    }
  }
#endif
