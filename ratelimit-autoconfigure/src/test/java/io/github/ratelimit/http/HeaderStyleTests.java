package io.github.ratelimit.http;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class HeaderStyleTests {

	@Test
	void parsesEveryPropertyValue() {
		assertThat(HeaderStyle.fromValue("ietf")).isEqualTo(HeaderStyle.IETF);
		assertThat(HeaderStyle.fromValue("x-ratelimit")).isEqualTo(HeaderStyle.X_RATELIMIT);
		assertThat(HeaderStyle.fromValue("split")).isEqualTo(HeaderStyle.SPLIT);
		assertThat(HeaderStyle.fromValue("draft7")).isEqualTo(HeaderStyle.DRAFT7);
		assertThat(HeaderStyle.fromValue("none")).isEqualTo(HeaderStyle.NONE);
	}

	@Test
	void parsesValuesLeniently() {
		assertThat(HeaderStyle.fromValue(" IETF ")).isEqualTo(HeaderStyle.IETF);
		assertThat(HeaderStyle.fromValue("X_RATELIMIT")).isEqualTo(HeaderStyle.X_RATELIMIT);
	}

	@Test
	void valueRoundTrips() {
		for (HeaderStyle style : HeaderStyle.values()) {
			assertThat(HeaderStyle.fromValue(style.value())).isEqualTo(style);
			assertThat(style).hasToString(style.value());
		}
	}

	@Test
	void rejectsUnknownValueNamingTheValidOnes() {
		assertThatIllegalArgumentException().isThrownBy(() -> HeaderStyle.fromValue("github"))
			.withMessageContaining("'github'")
			.withMessageContaining("ietf, x-ratelimit, split, draft7, none");
	}

}
