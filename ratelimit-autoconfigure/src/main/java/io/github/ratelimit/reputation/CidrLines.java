package io.github.ratelimit.reputation;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

import io.github.ratelimit.identity.CidrRange;

/**
 * Reads a list of CIDR ranges in the plain format of the common drop lists and Tor exit
 * lists: one address or range per line; {@code #} or {@code ;} starts a comment, to the
 * end of the line (Spamhaus DROP writes {@code 1.10.16.0/20 ; SBL256894}); blank lines
 * are skipped. A line that is not a range (host bits set, garbage, two words) is bad: it
 * is skipped and reported, never widened into a range it does not name.
 */
public final class CidrLines {

	private CidrLines() {
	}

	/**
	 * Reads a list.
	 * @param reader the text
	 * @param maxEntries the most ranges kept: reading stops past that, and the result
	 * says so
	 * @return what was read
	 * @throws IOException when the text cannot be read
	 */
	public static Parsed read(Reader reader, int maxEntries) throws IOException {
		List<CidrRange> ranges = new ArrayList<>();
		List<BadLine> bad = new ArrayList<>();
		int entries = 0;
		boolean tooMany = false;
		BufferedReader lines = (reader instanceof BufferedReader buffered) ? buffered : new BufferedReader(reader);
		int number = 0;
		for (String line = lines.readLine(); line != null; line = lines.readLine()) {
			number++;
			String entry = entry(line);
			if (entry.isEmpty()) {
				continue;
			}
			entries++;
			String reason = CidrRange.invalidReason(entry);
			if (reason != null) {
				bad.add(new BadLine(number, reason));
				continue;
			}
			if (ranges.size() >= maxEntries) {
				tooMany = true;
				break;
			}
			ranges.add(CidrRange.parse(entry));
		}
		return new Parsed(List.copyOf(ranges), entries, List.copyOf(bad), tooMany);
	}

	private static String entry(String line) {
		int end = line.length();
		for (int i = 0; i < line.length(); i++) {
			char c = line.charAt(i);
			if (c == '#' || c == ';') {
				end = i;
				break;
			}
		}
		return line.substring(0, end).strip();
	}

	/**
	 * A list as read.
	 *
	 * @param ranges the valid ranges, in the order of the text
	 * @param entries the lines that held something other than a comment
	 * @param badLines the lines that held no valid range
	 * @param tooMany whether the text held more ranges than the most kept
	 */
	public record Parsed(List<CidrRange> ranges, int entries, List<BadLine> badLines, boolean tooMany) {

		/**
		 * Why this list must not replace the one in force, or {@code null} when it may:
		 * it holds no range, more than half of its entries are bad (a file cut short, an
		 * HTML error page, a format changed under us), or more ranges than the most kept.
		 */
		public @Nullable String rejection(int maxEntries) {
			if (this.tooMany) {
				return "more than " + maxEntries + " entries (max-entries)";
			}
			if (this.ranges.isEmpty()) {
				return "no valid range";
			}
			if (this.badLines.size() * 2 > this.entries) {
				return this.badLines.size() + " of " + this.entries + " entries are not ranges";
			}
			return null;
		}

	}

	/**
	 * A line that held no valid range.
	 *
	 * @param number its line number, from 1
	 * @param reason what is wrong with it
	 */
	public record BadLine(int number, String reason) {

	}

}
