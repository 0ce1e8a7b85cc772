import Foundation

/// For the benchmark only (`@_spi(Benchmarking)`): turns the change hub of one suite off
/// so a write can be timed as if observation were compiled out. Never use it in an app:
/// observers and Observation-framework trackers of the suite would miss every change
/// while it is on.
///
/// Per suite rather than a global switch, so every other suite's writes never look at it;
/// the flag sits under the hub's own lock, which a write takes anyway.
@_spi(Benchmarking)
public enum ObservationBypass {
  /// Whether writes to the suite of `defaults` skip its change hub entirely.
  ///
  /// - Parameter defaults: any object of the suite.
  /// - Returns: `true` while the hub is bypassed.
  ///
  /// ```swift
  /// ObservationBypass.isEnabled(for: store)
  /// ```
  public static func isEnabled(for defaults: UserDefaults) -> Bool {
    defaults.access.suite.hub.isBypassed
  }

  /// Turns the change hub of the suite of `defaults` off (`true`) or back on (`false`).
  ///
  /// - Parameters:
  ///   - isEnabled: whether writes skip the hub.
  ///   - defaults: any object of the suite.
  ///
  /// ```swift
  /// ObservationBypass.setEnabled(true, for: store)
  /// ```
  public static func setEnabled(_ isEnabled: Bool, for defaults: UserDefaults) {
    defaults.access.suite.hub.isBypassed = isEnabled
  }
}
