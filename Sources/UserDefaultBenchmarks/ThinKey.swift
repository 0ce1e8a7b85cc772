import Foundation

/// What the peer libraries (Defaults, SwiftyUserDefaults, Foil, the seed's wrapper) do on
/// a Foundation instance: a generic key whose getter casts `object(forKey:)` and whose
/// setter is `set(_:forKey:)`. The yardstick of ``PeersProtocol``.
struct ThinKey<Value> {
  let name: String
  let defaultValue: Value

  init(_ name: String, default defaultValue: Value) {
    self.name = name
    self.defaultValue = defaultValue
  }

  func value(in defaults: UserDefaults) -> Value {
    defaults.object(forKey: name) as? Value ?? defaultValue
  }

  func set(_ value: Value, in defaults: UserDefaults) {
    defaults.set(value, forKey: name)
  }
}

/// A Codable value as the peers store it on Foundation: JSON text (as Defaults does, and
/// as the library does), through `JSONEncoder` and `JSONDecoder`. One coder each, kept:
/// cheaper than the peers that make one per call, so the yardstick is not flattered.
struct ThinCodableKey<Value: Codable> {
  let name: String
  let encoder = JSONEncoder()
  let decoder = JSONDecoder()

  func value(in defaults: UserDefaults) -> Value? {
    guard let text = defaults.string(forKey: name) else { return nil }
    return try? decoder.decode(Value.self, from: Data(text.utf8))
  }

  func set(_ value: Value, in defaults: UserDefaults) {
    guard let data = try? encoder.encode(value) else { return }
    defaults.set(String(decoding: data, as: UTF8.self), forKey: name)
  }
}
