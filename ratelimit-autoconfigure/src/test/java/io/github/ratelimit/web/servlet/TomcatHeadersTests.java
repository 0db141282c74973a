package io.github.ratelimit.web.servlet;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;

import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import org.apache.catalina.connector.Response;
import org.apache.tomcat.util.buf.MessageBytes;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Headers set on Tomcat's own response as bytes read back as they were set, replace a
 * header of the same name, and leave a committed response alone; anything but visible
 * ASCII, and a response another filter wrapped, take the servlet API.
 */
class TomcatHeadersTests {

	private final Response response = tomcatResponse();

	private final TomcatHeaders headers = new TomcatHeaders(this.response);

	@Test
	void visibleAsciiIsGivenToTomcatEncodedAndReadsBackUnchanged() {
		String policy = "\"anonymous-ip-default-1m\";q=60;w=60, \"backstop-ip-default\";q=6000;w=60";
		this.headers.accept("RateLimit-Policy", policy);
		this.headers.accept("X-RateLimit-Remaining", "59");
		// read first: reading a header turns Tomcat's bytes into a string
		assertThat(value("RateLimit-Policy").getType()).isEqualTo(MessageBytes.T_BYTES);
		assertThat(this.response.getHeader("RateLimit-Policy")).isEqualTo(policy);
		assertThat(this.response.getHeader("x-ratelimit-remaining")).isEqualTo("59");
	}

	@Test
	void theNextResponseWritesIntoTheBuffersTomcatKeptAndReadsBackOnlyItsOwnBytes() {
		this.headers.accept("RateLimit", "\"anonymous-ip-default-1m\";r=59;t=1");
		byte[] kept = value("RateLimit").getByteChunk().getBuffer();
		this.response.getCoyoteResponse().recycle();
		this.headers.accept("RateLimit", "\"a\";r=0;t=1");
		assertThat(value("RateLimit").getByteChunk().getBuffer()).isSameAs(kept);
		assertThat(this.response.getHeader("RateLimit")).isEqualTo("\"a\";r=0;t=1");
		// each header its own buffer: one written later leaves the earlier as it was
		this.headers.accept("X-RateLimit-Remaining", "0");
		assertThat(value("X-RateLimit-Remaining").getByteChunk().getBuffer()).isNotSameAs(kept);
		assertThat(this.response.getHeader("RateLimit")).isEqualTo("\"a\";r=0;t=1");
		assertThat(this.response.getHeader("X-RateLimit-Remaining")).isEqualTo("0");
	}

	@Test
	void replacesAHeaderOfTheSameNameWhateverItsCase() {
		this.response.setHeader("x-request-id", "from-the-application");
		this.headers.accept("X-Request-Id", "abc123");
		assertThat(this.response.getHeaders("X-Request-Id")).containsExactly("abc123");
	}

	@Test
	void aHeaderSetTwiceInOneGoIsReplacedWhateverItsCase() {
		this.headers.accept("X-Request-Id", "abc123");
		this.headers.accept("RateLimit", "\"a\";r=1;t=1");
		this.headers.accept("ratelimit", "\"a\";r=0;t=1");
		assertThat(this.response.getHeaders("RateLimit")).containsExactly("\"a\";r=0;t=1");
		assertThat(this.response.getHeaders("X-Request-Id")).containsExactly("abc123");
	}

	@Test
	void aHeaderTheApplicationSetBetweenTwoOfOursIsReplaced() {
		this.headers.accept("X-Request-Id", "abc123");
		this.response.setHeader("X-RateLimit-Limit", "from-the-application");
		this.headers.accept("X-RateLimit-Limit", "60");
		this.headers.accept("X-Request-Id", "def456");
		assertThat(this.response.getHeaders("X-RateLimit-Limit")).containsExactly("60");
		assertThat(this.response.getHeaders("X-Request-Id")).containsExactly("def456");
	}

	@Test
	void manyHeadersInOneGoStillReplaceTheirNamesakes() {
		for (int i = 0; i < 12; i++) {
			this.headers.accept("X-Header-" + i, "first");
		}
		for (int i = 0; i < 12; i++) {
			this.headers.accept("x-header-" + i, "second");
		}
		for (int i = 0; i < 12; i++) {
			assertThat(this.response.getHeaders("X-Header-" + i)).as("X-Header-" + i).containsExactly("second");
		}
	}

	@Test
	void aControlOrNonAsciiCharacterTakesTheServletApiWhichCleansIt() {
		this.headers.accept("X-Request-Id", "abc\r\nSet-Cookie: x=1");
		this.headers.accept("RateLimit", "\"caf\u00e9\";r=1;t=1");
		assertThat(value("X-Request-Id").getType()).isEqualTo(MessageBytes.T_STR);
		assertThat(value("RateLimit").getType()).isEqualTo(MessageBytes.T_STR);
		assertThat(this.response.getHeader("RateLimit")).isEqualTo("\"caf\u00e9\";r=1;t=1");
	}

	@Test
	void aValueTheServletApiMustCleanReplacesOneOfOursAndLeavesNoHalfWrittenHeader() {
		this.headers.accept("RateLimit", "\"a\";r=1;t=1");
		this.headers.accept("RateLimit", "\"caf\u00e9\";r=0;t=1");
		this.headers.accept("X-Caf\u00e9", "1");
		assertThat(this.response.getHeaders("RateLimit")).containsExactly("\"caf\u00e9\";r=0;t=1");
		assertThat(value("RateLimit").getType()).isEqualTo(MessageBytes.T_STR);
		assertThat(this.response.getHeaders("X-Caf\u00e9")).containsExactly("1");
		assertThat(this.response.getCoyoteResponse().getMimeHeaders().size()).isEqualTo(2);
	}

	@Test
	void aCommittedResponseIsLeftAlone() {
		this.response.getCoyoteResponse().setCommitted(true);
		this.headers.accept("X-RateLimit-Remaining", "59");
		assertThat(this.response.getCoyoteResponse().getMimeHeaders().getHeader("X-RateLimit-Remaining")).isNull();
	}

	@Test
	void theFilterWritesTomcatsOwnResponseDirectly() {
		MockHttpServletRequest request = new MockHttpServletRequest();
		request.setAttribute(ResponseHeaders.ATTRIBUTE, this.headers);
		ResponseHeaders.setter(request, this.response.getResponse()).accept("X-RateLimit-Limit", "60");
		assertThat(value("X-RateLimit-Limit").getType()).isEqualTo(MessageBytes.T_BYTES);
	}

	@Test
	void aResponseAnotherFilterWrappedSeesTheHeadersThroughItsWrapper() {
		MockHttpServletRequest request = new MockHttpServletRequest();
		request.setAttribute(ResponseHeaders.ATTRIBUTE, this.headers);
		List<String> seen = new ArrayList<>();
		HttpServletResponse wrapper = new HttpServletResponseWrapper(this.response.getResponse()) {

			@Override
			public void setHeader(String name, String value) {
				seen.add(name + ": " + value);
				super.setHeader(name, value);
			}

		};
		BiConsumer<String, String> setter = ResponseHeaders.setter(request, wrapper);
		setter.accept("X-RateLimit-Limit", "60");
		assertThat(seen).containsExactly("X-RateLimit-Limit: 60");
		assertThat(this.response.getHeader("X-RateLimit-Limit")).isEqualTo("60");
	}

	@Test
	void withoutTheValveTheFilterTakesTheServletApi() {
		ResponseHeaders.setter(new MockHttpServletRequest(), this.response.getResponse())
			.accept("RateLimit", "\"a\";r=1;t=1");
		assertThat(value("RateLimit").getType()).isEqualTo(MessageBytes.T_STR);
	}

	private MessageBytes value(String name) {
		MessageBytes value = this.response.getCoyoteResponse().getMimeHeaders().getValue(name);
		assertThat(value).as(name).isNotNull();
		return value;
	}

	private static Response tomcatResponse() {
		return new Response(new org.apache.coyote.Response());
	}

}
