/// Renders a ``DsymInspection`` for people: UUIDs per architecture, then the verdicts.
package enum DsymReportRenderer {
    /// Plain text, one line per slice, ending with a newline.
    package static func render(_ inspection: DsymInspection) -> String {
        var lines: [String] = ["\(inspection.path) (\(inspection.kind.rawValue))"]
        let verdicts = inspection.report?.slices ?? []
        if !inspection.binaries.isEmpty {
            lines.append("  binaries:")
            for binary in inspection.binaries {
                lines.append("    \(binary.path) [\(binary.role.rawValue)]")
                for slice in binary.slices {
                    var line = "      \(pad(slice.architecture)) \(slice.uuid ?? "no LC_UUID")"
                    if let verdict = verdicts.first(where: { $0.binary == binary.path && $0.architecture == slice.architecture }) {
                        switch verdict.verdict {
                        case .matched: line += "  ok: \(verdict.dsym ?? "")"
                        case .mismatched: line += "  MISMATCH: \(verdict.dsym ?? "") has \(verdict.dsymUUID ?? "no uuid")"
                        case .missing: line += "  MISSING: no dSYM"
                        case .noUUID: line += "  NO UUID"
                        }
                    }
                    lines.append(line)
                }
            }
        }
        if !inspection.dsyms.isEmpty {
            lines.append("  dSYMs:")
            for dsym in inspection.dsyms {
                lines.append("    \(dsym.path)")
                for slice in dsym.slices {
                    lines.append("      \(pad(slice.architecture)) \(slice.uuid ?? "no LC_UUID")")
                }
            }
        }
        if let report = inspection.report {
            let matched = report.slices.filter { $0.verdict == .matched }.count
            lines.append("  \(matched) of \(report.slices.count) binary slices have their dSYM; \(report.unmatchedDsymSlices.count) dSYM slices match no binary")
            for problem in report.problems { lines.append("  problem: \(problem)") }
            for slice in report.unmatchedDsymSlices {
                lines.append("  unmatched dSYM: \(slice.dsym) (\(slice.architecture)) \(slice.uuid ?? "no LC_UUID")")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func pad(_ text: String) -> String {
        text.count >= 8 ? text : text + String(repeating: " ", count: 8 - text.count)
    }
}
