import Foundation

/// One line of the results: an operation at a suite size, library against raw.
struct ResultRow {
  let benchmark: String
  let size: Int
  let library: Timing
  let raw: Timing
  /// What "raw" means for this row, when it is not the plain Foundation call.
  let rawLabel: String
  /// Library over raw: the median of paired repetitions' ratios where the row has them
  /// (``Comparison/pairedRatio``), else the ratio of the medians.
  let ratio: Double

  /// A row timed once per prepared file, or derived from others: the ratio of the medians.
  init(benchmark: String, size: Int, library: Timing, raw: Timing, rawLabel: String) {
    self.init(
      benchmark: benchmark, size: size, library: library, raw: raw, rawLabel: rawLabel,
      ratio: library.median / raw.median)
  }

  /// A row of two operations timed by interleaved repetitions: their paired ratio.
  init(benchmark: String, size: Int, _ timings: Comparison, rawLabel: String) {
    self.init(
      benchmark: benchmark, size: size, library: timings.library, raw: timings.raw,
      rawLabel: rawLabel, ratio: timings.pairedRatio)
  }

  private init(
    benchmark: String, size: Int, library: Timing, raw: Timing, rawLabel: String, ratio: Double
  ) {
    self.benchmark = benchmark
    self.size = size
    self.library = library
    self.raw = raw
    self.rawLabel = rawLabel
    self.ratio = ratio
  }
}

/// Prints the table as rows arrive, and writes the CSV and the SVG chart at the end.
final class Report {
  private(set) var rows: [ResultRow] = []

  func printHeader(floor: Timing) {
    emit(String(format: "floor (lock + dictionary lookup): %.0f ns", floor.median))
    emit(
      pad("benchmark", 34) + pad("keys", 8, right: true)
        + pad("library ns [min..max]", 36, right: true)
        + pad("raw ns [min..max]", 40, right: true) + pad("lib/raw", 10, right: true))
  }

  func add(_ row: ResultRow) {
    rows.append(row)
    func cell(_ timing: Timing) -> String {
      String(format: "%.0f [%.0f..%.0f]", timing.median, timing.min, timing.max)
    }
    emit(
      pad(row.benchmark, 34) + pad("\(row.size)", 8, right: true)
        + pad(cell(row.library), 36, right: true) + pad(cell(row.raw), 40, right: true)
        + pad(String(format: "%.4f", row.ratio), 10, right: true))
  }

  func printWarnings() {
    for row in rows {
      for (side, timing) in [("library", row.library), ("raw", row.raw)] {
        if let warning = timing.warning {
          emit("warning: \(row.benchmark) at \(row.size) keys, \(side): \(warning)")
        }
      }
    }
  }

  func csv() -> String {
    var lines = [
      "benchmark,keys,library_ns_median,library_ns_min,library_ns_max,library_iterations,"
        + "raw,raw_ns_median,raw_ns_min,raw_ns_max,raw_iterations,ratio,warning"
    ]
    for row in rows {
      let warning = [row.library.warning, row.raw.warning].compactMap { $0 }.joined(separator: "; ")
      lines.append(
        [
          quoted(row.benchmark), "\(row.size)", format(row.library.median), format(row.library.min),
          format(row.library.max), "\(row.library.iterations)", quoted(row.rawLabel),
          format(row.raw.median), format(row.raw.min), format(row.raw.max),
          "\(row.raw.iterations)", String(format: "%.5f", row.ratio), quoted(warning),
        ].joined(separator: ","))
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// Cost against suite size, both axes logarithmic: one colour per benchmark, the
  /// library solid and raw Foundation dashed.
  func svg(benchmarks: [String]) -> String {
    let width = 960.0
    let height = 600.0
    let left = 80.0
    let right = 320.0
    let top = 40.0
    let bottom = 60.0
    let charted = rows.filter { benchmarks.contains($0.benchmark) }
    let sizes = Set(charted.map(\.size)).sorted()
    let values = charted.flatMap { [$0.library.median, $0.raw.median] }.filter { $0 > 0 }
    guard let minSize = sizes.first, let maxSize = sizes.last, let low = values.min(),
      let high = values.max()
    else { return "<svg xmlns=\"http://www.w3.org/2000/svg\"/>\n" }
    let yLow = floor(log10(low))
    let yHigh = ceil(log10(high))
    let xLow = log10(Double(minSize))
    let xHigh = Swift.max(log10(Double(maxSize)), xLow + 1)
    func x(_ size: Int) -> Double {
      left + (log10(Double(size)) - xLow) / (xHigh - xLow) * (width - left - right)
    }
    func y(_ ns: Double) -> Double {
      top + (yHigh - log10(ns)) / Swift.max(yHigh - yLow, 1) * (height - top - bottom)
    }
    let colours = [
      "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf",
      "#7f7f7f", "#bcbd22",
    ]
    var svg = """
      <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" font-family="sans-serif" font-size="12">
      <rect width="100%" height="100%" fill="white"/>
      <text x="\(left)" y="24" font-size="15">Cost per operation against suite size (log-log): library solid, raw UserDefaults dashed</text>

      """
    var exponent = yLow
    while exponent <= yHigh {
      let position = y(pow(10, exponent))
      svg +=
        "<line x1=\"\(left)\" y1=\"\(position)\" x2=\"\(width - right)\" y2=\"\(position)\" stroke=\"#ddd\"/>\n"
      svg +=
        "<text x=\"\(left - 8)\" y=\"\(position + 4)\" text-anchor=\"end\">\(label(nanoseconds: pow(10, exponent)))</text>\n"
      exponent += 1
    }
    for size in sizes {
      svg +=
        "<line x1=\"\(x(size))\" y1=\"\(top)\" x2=\"\(x(size))\" y2=\"\(height - bottom)\" stroke=\"#ddd\"/>\n"
      svg +=
        "<text x=\"\(x(size))\" y=\"\(height - bottom + 18)\" text-anchor=\"middle\">\(size) keys</text>\n"
    }
    for (index, benchmark) in benchmarks.enumerated() {
      let colour = colours[index % colours.count]
      let series = charted.filter { $0.benchmark == benchmark }.sorted { $0.size < $1.size }
      guard !series.isEmpty else { continue }
      for (dash, pick) in [
        ("", { (row: ResultRow) in row.library.median }), ("6,4", { $0.raw.median }),
      ] {
        let points = series.map { "\(x($0.size)),\(y(pick($0)))" }.joined(separator: " ")
        svg +=
          "<polyline fill=\"none\" stroke=\"\(colour)\" stroke-width=\"2\" stroke-dasharray=\"\(dash)\" points=\"\(points)\"/>\n"
        for row in series {
          svg +=
            "<circle cx=\"\(x(row.size))\" cy=\"\(y(pick(row)))\" r=\"3\" fill=\"\(colour)\"/>\n"
        }
      }
      let legendY = top + Double(index) * 20
      svg +=
        "<line x1=\"\(width - right + 20)\" y1=\"\(legendY)\" x2=\"\(width - right + 44)\" y2=\"\(legendY)\" stroke=\"\(colour)\" stroke-width=\"2\"/>\n"
      svg += "<text x=\"\(width - right + 50)\" y=\"\(legendY + 4)\">\(escaped(benchmark))</text>\n"
    }
    svg += "</svg>\n"
    return svg
  }

  private func label(nanoseconds: Double) -> String {
    switch nanoseconds {
    case ..<1_000: String(format: "%.0f ns", nanoseconds)
    case ..<1_000_000: String(format: "%.0f µs", nanoseconds / 1_000)
    case ..<1_000_000_000: String(format: "%.0f ms", nanoseconds / 1_000_000)
    default: String(format: "%.0f s", nanoseconds / 1_000_000_000)
    }
  }

  private func escaped(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
  }

  private func format(_ value: Double) -> String { String(format: "%.1f", value) }

  private func quoted(_ text: String) -> String {
    "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }

  private func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
    let padding = String(repeating: " ", count: Swift.max(0, width - text.count))
    return right ? padding + text : text + padding
  }
}
