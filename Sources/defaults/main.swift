// `defaults`: read and change preferences on Linux, with the verbs of macOS defaults(1).
// Run `defaults help`. Exit status: 0 on success, 1 on any error (as on macOS).
import DefaultsCommand
import Foundation
import UserDefault

func printOut(_ text: String) {
  FileHandle.standardOutput.write(Data((text + "\n").utf8))
}

func printError(_ text: String) {
  FileHandle.standardError.write(Data((text + "\n").utf8))
}

// What the library reports while the tool works (a damaged file set aside): one clean line.
DefaultsDiagnostics.handler = { printError(DefaultsTool.message(for: $0)) }

// On macOS cfprefsd owns preferences, and /usr/bin/defaults speaks to it: files this tool
// wrote would be unseen by apps and overwritten, so it says so and does nothing.
#if os(macOS)
  printError(DefaultsTool.macOSNotice)
  exit(1)
#else
  do {
    let invocation = try ToolArguments.parseInvocation(Array(CommandLine.arguments.dropFirst()))
    let tool = try DefaultsTool(host: invocation.host, output: printOut)
    try tool.run(invocation.command)
    exit(0)
  } catch let error as ToolArgumentError {
    switch error {
    case .usage(let verb, let message):
      printError("defaults: \(message)\n" + DefaultsTool.usage(verb: verb))
    case .invalidValue(let message):
      printError("defaults: \(message)")
    }
    exit(1)
  } catch let error as ToolError {
    printError(error.message)
    exit(1)
  }
#endif
