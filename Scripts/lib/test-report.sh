# What a `swift test` run recorded, read from its xUnit files rather than from its console output
# (which can lose its last lines, the summary among them). Source it; it defines
# swift_testing_xunit and report_test_run.
#
# `swift test --xunit-output FILE` writes XCTest's results to FILE and Swift Testing's to a
# sibling, FILE with `-swift-testing` before its extension (.build/test-results.xml:
# .build/test-results-swift-testing.xml). Each test function is one <testcase> (a parameterized
# one once, for all its arguments), with a <failure message="..."/> for each issue recorded and a
# <skipped/> when it did not run.

# swift_testing_xunit FILE: the path of the Swift Testing record beside the xUnit file FILE.
swift_testing_xunit() {
    local file="$1"
    case "$file" in
        *.*) echo "${file%.*}-swift-testing.${file##*.}" ;;
        *) echo "$file-swift-testing" ;;
    esac
}

# report_test_run LABEL FILE: prints one line of totals for the run whose xUnit record is FILE
# (Swift Testing's and XCTest's together), then every failing test with its messages, e.g.
#   == main pass: 939 tests, 0 failed, 3 skipped (xunit: .build/test-results-swift-testing.xml)
# Returns 0 when the record exists and no test failed, 1 otherwise; with no record at all (the
# test process crashed before writing it) it says so.
report_test_run() {
    local label="$1" file="$2" testing files=()
    testing="$(swift_testing_xunit "$file")"
    [ -s "$testing" ] && files+=("$testing")
    [ -s "$file" ] && files+=("$file")
    if [ ${#files[@]} -eq 0 ]; then
        echo "== $label: no test record ($testing and $file are missing or empty: the test process ended before writing them)" >&2
        return 1
    fi
    # One record per tag: RS splits the text at each "<" (attribute values hold it as &lt;).
    # The C locale: awk handles bytes, and writes each byte of a UTF-8 sequence as it is.
    LC_ALL=C awk -v label="$label" -v where="${files[*]}" '
        # The UTF-8 bytes of code point c.
        function utf8(c) {
            if (c < 128) return sprintf("%c", c)
            if (c < 2048) return sprintf("%c%c", 192 + int(c / 64), 128 + c % 64)
            if (c < 65536) return sprintf("%c%c%c", 224 + int(c / 4096), 128 + int(c / 64) % 64, 128 + c % 64)
            return sprintf("%c%c%c%c", 240 + int(c / 262144), 128 + int(c / 4096) % 64, 128 + int(c / 64) % 64, 128 + c % 64)
        }
        # Text with its XML entities and character references replaced.
        function unescape(s,    out, ref, c, i) {
            out = ""
            while (match(s, /&(#[0-9]+|#[xX][0-9a-fA-F]+|[a-z]+);/)) {
                out = out substr(s, 1, RSTART - 1)
                ref = substr(s, RSTART + 1, RLENGTH - 2)
                s = substr(s, RSTART + RLENGTH)
                if (ref == "quot") out = out "\""
                else if (ref == "apos") out = out "\047"
                else if (ref == "lt") out = out "<"
                else if (ref == "gt") out = out ">"
                else if (ref == "amp") out = out "&"
                else if (ref ~ /^#[xX]/) {
                    c = 0
                    for (i = 3; i <= length(ref); i++) c = c * 16 + index("0123456789abcdef", tolower(substr(ref, i, 1))) - 1
                    out = out (c == 13 ? "" : utf8(c))
                } else if (ref ~ /^#/) {
                    c = substr(ref, 2) + 0
                    out = out (c == 13 ? "" : utf8(c))
                } else out = out "&" ref ";"
            }
            return out s
        }
        function attr(tag, name) {
            if (!match(tag, "[ \t\n]" name "=\"[^\"]*\"")) return ""
            return unescape(substr(tag, RSTART + length(name) + 3, RLENGTH - length(name) - 4))
        }
        function close_case() {
            if (!open) return
            if (issues[n] > 0) failed++
            else if (skipped[n]) skips++
            open = 0
        }
        BEGIN { RS = "<" }
        /^testcase[ \t\n\/>]/ {
            close_case()
            n++; open = 1
            cls = attr($0, "classname"); nm = attr($0, "name")
            names[n] = (cls == "" ? nm : cls "." nm)
            if ($0 ~ /\/>[ \t\n]*$/) close_case()
            next
        }
        /^\/testcase/ { close_case(); next }
        /^(failure|error)[ \t\n\/>]/ && open {
            m = attr($0, "message")
            # A message written as the element text instead of an attribute.
            if (m == "" && $0 !~ /\/>/) { m = $0; sub(/^[^>]*>/, "", m); sub(/[ \t\n]+$/, "", m); m = unescape(m) }
            message[n, ++issues[n]] = (m == "" ? "(no message)" : m)
            next
        }
        /^skipped[ \t\n\/>]/ && open { skipped[n] = 1; next }
        END {
            close_case()
            printf "== %s: %d tests, %d failed, %d skipped (xunit: %s)\n", label, n, failed, skips, where
            for (i = 1; i <= n; i++) if (issues[i] > 0) {
                printf "  FAILED %s\n", names[i]
                for (k = 1; k <= issues[i]; k++) {
                    text = message[i, k]; gsub(/\n/, "\n        ", text)
                    printf "      %s\n", text
                }
            }
            if (n == 0) { printf "== %s: the record lists no test\n", label; exit 1 }
            exit (failed > 0 ? 1 : 0)
        }
    ' "${files[@]}"
}
