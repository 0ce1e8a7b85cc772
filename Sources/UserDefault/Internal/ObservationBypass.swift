import Synchronization

/// Whether writes skip the change hub; see ``ObservationBypass``.
enum HubBypass {
  static let isOn = Atomic<Bool>(false)
}

/// For the benchmark only (`@_spi(Benchmarking)`): turns the change hub off so a write
/// can be timed as if observation were compiled out. Never set it in an app: observers
/// and Observation-framework trackers would miss every change while it is on.
@_spi(Benchmarking)
public enum ObservationBypass {
  /// Whether writes skip the change hub entirely.
  public static var isEnabled: Bool {
    get { HubBypass.isOn.load(ordering: .relaxed) }
    set { HubBypass.isOn.store(newValue, ordering: .relaxed) }
  }
}
