package io.github.ratelimit.reputation;

import java.io.IOException;
import java.io.StringReader;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CidrLinesTests {

	@Test
	void readsTheDropListFormat() throws IOException {
		CidrLines.Parsed parsed = CidrLines.read(new StringReader("""
				; Spamhaus DROP List 2026/01/01
				; Expires: Thu, 01 Jan 2026 01:00:00 GMT
				1.10.16.0/20 ; SBL256894
				2.56.192.0/22 ; SBL459831

				"""), 100);
		assertThat(parsed.ranges()).extracting(Object::toString).containsExactly("1.10.16.0/20", "2.56.192.0/22");
		assertThat(parsed.badLines()).isEmpty();
		assertThat(parsed.rejection(100)).isNull();
	}

	@Test
	void readsTheTorExitListFormat() throws IOException {
		CidrLines.Parsed parsed = CidrLines.read(new StringReader("""
				# exit addresses
				185.220.101.1
				2001:db8::7
				"""), 100);
		assertThat(parsed.ranges()).extracting(Object::toString).containsExactly("185.220.101.1/32", "2001:db8::7/128");
	}

	@Test
	void skipsAndReportsBadLinesByNumber() throws IOException {
		CidrLines.Parsed parsed = CidrLines.read(new StringReader("""
				# header
				203.0.113.0/24
				203.0.113.1/24
				not-an-address
				198.51.100.0/24 extra
				192.0.2.0/24
				"""), 100);
		assertThat(parsed.ranges()).extracting(Object::toString).containsExactly("203.0.113.0/24", "192.0.2.0/24");
		assertThat(parsed.badLines()).extracting(CidrLines.BadLine::number).containsExactly(3, 4, 5);
		assertThat(parsed.badLines().get(0).reason()).contains("did you mean 203.0.113.0/24");
		// 3 bad of 5: corrupt
		assertThat(parsed.rejection(100)).contains("3 of 5 entries");
	}

	@Test
	void refusesAnEmptyOrTooLargeList() throws IOException {
		assertThat(CidrLines.read(new StringReader("# nothing\n"), 100).rejection(100)).contains("no valid range");
		assertThat(CidrLines.read(new StringReader("<html>503 Service Unavailable</html>\n"), 100).rejection(100))
			.isNotNull();
		CidrLines.Parsed large = CidrLines.read(new StringReader("10.0.0.1\n10.0.0.2\n10.0.0.3\n"), 2);
		assertThat(large.tooMany()).isTrue();
		assertThat(large.rejection(2)).contains("max-entries");
	}

}
