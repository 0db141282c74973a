package io.github.ratelimit.http;

import java.util.HashSet;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RequestIdsTests {

	@Test
	void keepsASaneCallerId() {
		assertThat(RequestIds.sanitizeOrGenerate("7f9c2b1e4d")).isEqualTo("7f9c2b1e4d");
		String uuid = UUID.randomUUID().toString();
		assertThat(RequestIds.sanitizeOrGenerate(uuid)).isEqualTo(uuid);
		assertThat(RequestIds.sanitizeOrGenerate("a.b_c~d:e+f/g=h-i")).isEqualTo("a.b_c~d:e+f/g=h-i");
	}

	@Test
	void keepsAnIdOfExactlyTheMaximumLength() {
		String longest = "a".repeat(RequestIds.MAX_LENGTH);

		assertThat(RequestIds.sanitizeOrGenerate(longest)).isEqualTo(longest);
	}

	@Test
	void replacesAnOverlongId() {
		assertThat(RequestIds.sanitizeOrGenerate("a".repeat(RequestIds.MAX_LENGTH + 1))).matches("[0-9a-f]{16}");
		assertThat(RequestIds.sanitizeOrGenerate("a".repeat(10_000))).matches("[0-9a-f]{16}");
	}

	@Test
	void replacesAnIdThatWouldSplitTheHeader() {
		assertThat(RequestIds.sanitizeOrGenerate("abc\r\nSet-Cookie: session=stolen")).matches("[0-9a-f]{16}");
		assertThat(RequestIds.sanitizeOrGenerate("abc\n")).matches("[0-9a-f]{16}");
		assertThat(RequestIds.sanitizeOrGenerate("abc\u0000")).matches("[0-9a-f]{16}");
	}

	@Test
	void replacesAnIdWithSpacesQuotesOrUnicode() {
		assertThat(RequestIds.sanitizeOrGenerate("a b")).matches("[0-9a-f]{16}");
		assertThat(RequestIds.sanitizeOrGenerate("a\"b")).matches("[0-9a-f]{16}");
		assertThat(RequestIds.sanitizeOrGenerate("Root=1-67891233-abc;")).matches("[0-9a-f]{16}");
		assertThat(RequestIds.sanitizeOrGenerate("caf\u00e9")).matches("[0-9a-f]{16}");
		assertThat(RequestIds.sanitizeOrGenerate("${jndi:ldap://x}")).matches("[0-9a-f]{16}");
	}

	@Test
	void generatesAnIdWhenTheCallerSentNoneOrAnEmptyOne() {
		assertThat(RequestIds.sanitizeOrGenerate(null)).matches("[0-9a-f]{16}");
		assertThat(RequestIds.sanitizeOrGenerate("")).matches("[0-9a-f]{16}");
	}

	@Test
	void generatedIdsAreSaneAndDistinct() {
		Set<String> ids = new HashSet<>();
		for (int i = 0; i < 10_000; i++) {
			String id = RequestIds.generate();
			assertThat(RequestIds.isSane(id)).isTrue();
			ids.add(id);
		}
		assertThat(ids).hasSize(10_000);
	}

	@Test
	void headerIsXRequestId() {
		assertThat(RequestIds.HEADER).isEqualTo("X-Request-Id");
	}

}
