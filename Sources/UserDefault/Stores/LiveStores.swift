import Foundation

/// The stores that have a file, so that they can be flushed at exit.
enum LiveStores {
  private struct Weak: @unchecked Sendable {
    // Only read and written inside `stores`' lock, or copied out as a strong reference.
    weak var store: StoreEngine?
  }
  private static let stores = Lock<[Weak]>([])

  static func add(_ store: StoreEngine) {
    let first = stores.withLock { stores in
      stores.removeAll { $0.store == nil }
      stores.append(Weak(store: store))
      return stores.count == 1
    }
    if first { installExitHook }
  }

  private static let installExitHook: Void = {
    atexit { for store in LiveStores.all() { _ = try? store.flush() } }
  }()

  static func all() -> [StoreEngine] {
    stores.withLock { $0.compactMap(\.store) }
  }
}
