package io.github.ratelimit.web.servlet;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.mock.web.MockHttpServletResponse;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each way a servlet response commits tells the listener once, before anything of the
 * response reaches the delegate's output, with the status it commits with.
 */
class CommitNotifyingResponseTests {

	private final MockHttpServletResponse delegate = new MockHttpServletResponse();

	private final List<Commit> commits = new ArrayList<>();

	private final CommitNotifyingResponse response = new CommitNotifyingResponse(this.delegate,
			(status, location) -> this.commits.add(new Commit(status, location, this.delegate.isCommitted(),
					this.delegate.getContentAsByteArray().length)));

	static Stream<Arguments> commitPaths() {
		return Stream.of(Arguments.of("flushBuffer", (Action) HttpServletResponse::flushBuffer),
				Arguments.of("output stream flush", (Action) (response) -> response.getOutputStream().flush()),
				Arguments.of("output stream close", (Action) (response) -> response.getOutputStream().close()),
				Arguments.of("writer flush", (Action) (response) -> response.getWriter().flush()),
				Arguments.of("writer close", (Action) (response) -> response.getWriter().close()),
				Arguments.of("content length reached by the output stream", (Action) (response) -> {
					response.setContentLength(4);
					response.getOutputStream().write("body".getBytes(StandardCharsets.UTF_8));
				}), Arguments.of("content length header reached by the writer", (Action) (response) -> {
					response.setHeader("Content-Length", "4");
					response.getWriter().write("body");
				}), Arguments.of("buffer filled", (Action) (response) -> {
					response.setBufferSize(16);
					response.getOutputStream().write(new byte[16]);
				}), Arguments.of("buffer filled by a byte buffer", (Action) (response) -> {
					response.setBufferSize(16);
					response.getOutputStream().write(ByteBuffer.wrap(new byte[16]));
				}), Arguments.of("buffer filled by printed text", (Action) (response) -> {
					response.setBufferSize(16);
					response.getOutputStream().print("0123456789abcdef");
				}));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("commitPaths")
	void tellsOnceBeforeTheResponseCommits(String path, Action commit) throws IOException {
		this.response.setStatus(201);
		commit.on(this.response);
		commit.on(this.response);
		this.response.flushBuffer();
		assertThat(this.commits).containsExactly(new Commit(201, null, false, 0));
	}

	@Test
	void sendErrorTellsItsStatus() throws IOException {
		this.response.sendError(401);
		this.response.flushBuffer();
		assertThat(this.commits).containsExactly(new Commit(401, null, false, 0));
	}

	@Test
	void sendErrorWithAMessageTellsItsStatus() throws IOException {
		this.response.sendError(503, "stopping");
		assertThat(this.commits).containsExactly(new Commit(503, null, false, 0));
	}

	@Test
	void sendRedirectTellsAFoundAndTheLocation() throws IOException {
		this.response.sendRedirect("/login?error");
		assertThat(this.commits).containsExactly(new Commit(302, "/login?error", false, 0));
	}

	@Test
	void sendRedirectWithAStatusTellsThatStatus() throws IOException {
		this.response.sendRedirect("/elsewhere", 303, true);
		assertThat(this.commits).containsExactly(new Commit(303, "/elsewhere", false, 0));
	}

	@Test
	void flushTellsTheLocationHeaderOfARedirectWrittenByHand() throws IOException {
		this.response.setStatus(302);
		this.response.setHeader("Location", "/login?error");
		this.response.flushBuffer();
		assertThat(this.commits).containsExactly(new Commit(302, "/login?error", false, 0));
	}

	@Test
	void writeThatCompletesTheBodyTellsBeforeTheLastBytes() throws IOException {
		this.response.setContentLength(8);
		this.response.getOutputStream().write("half".getBytes(StandardCharsets.UTF_8));
		assertThat(this.commits).isEmpty();
		this.response.getOutputStream().write("full".getBytes(StandardCharsets.UTF_8));
		assertThat(this.commits).containsExactly(new Commit(200, null, false, 4));
	}

	@Test
	void writerCharactersThatCommitBeyondTheCountAreToldRightAfter() throws IOException {
		this.response.setCharacterEncoding("UTF-8");
		this.response.setBufferSize(8);
		// 6 characters, 12 bytes: the mock commits once its buffer overflows
		this.response.getWriter().write("éééééé");
		this.response.getWriter().flush();
		assertThat(this.commits).hasSize(1);
		assertThat(this.commits.get(0).status()).isEqualTo(200);
	}

	@Test
	void resetBufferStartsTheCountAgain() throws IOException {
		this.response.setBufferSize(16);
		this.response.getOutputStream().write(new byte[10]);
		this.response.resetBuffer();
		this.response.getOutputStream().write(new byte[10]);
		assertThat(this.commits).isEmpty();
	}

	@Test
	void responseThatNeverCommitsTellsNothing() throws IOException {
		this.response.setStatus(401);
		this.response.setContentType("text/plain");
		this.response.getWriter().write("wrong");
		assertThat(this.commits).isEmpty();
		assertThat(this.delegate.getStatus()).isEqualTo(401);
	}

	@Test
	void failingListenerDoesNotFailTheResponse() throws IOException {
		CommitNotifyingResponse failing = new CommitNotifyingResponse(this.delegate, (status, location) -> {
			throw new IllegalStateException("listener failed");
		});
		failing.getOutputStream().write('x');
		failing.flushBuffer();
		assertThat(this.delegate.isCommitted()).isTrue();
		assertThat(this.delegate.getContentAsString()).isEqualTo("x");
	}

	/** Something done to a response that commits it. */
	@FunctionalInterface
	interface Action {

		void on(HttpServletResponse response) throws IOException;

	}

	/**
	 * What the listener was told, and what the delegate had sent then.
	 *
	 * @param status the status told
	 * @param location the location told
	 * @param delegateCommitted whether the delegate had committed
	 * @param delegateBytes the bytes the delegate had been given
	 */
	record Commit(int status, @Nullable String location, boolean delegateCommitted, int delegateBytes) {

	}

}
