package io.github.ratelimit.behaviour;

import io.github.ratelimit.core.Decision;
import io.github.ratelimit.http.ProblemDetailsBodyWriter;
import io.github.ratelimit.http.RejectionBodyWriter;

/**
 * The default body writer, except that it throws for requests whose id is
 * {@link #FAIL_REQUEST_ID}: a user's body writer may be broken, and the limiter must not
 * answer 500 for it.
 */
class FailOnDemandBodyWriter implements RejectionBodyWriter {

	/** The request id that makes this writer throw. */
	static final String FAIL_REQUEST_ID = "fail-the-body-writer";

	private final ProblemDetailsBodyWriter delegate = new ProblemDetailsBodyWriter();

	@Override
	public String contentType() {
		return this.delegate.contentType();
	}

	@Override
	public byte[] write(Decision.Refusal refusal, String requestId) {
		if (FAIL_REQUEST_ID.equals(requestId)) {
			throw new IllegalStateException("A broken body writer (test)");
		}
		return this.delegate.write(refusal, requestId);
	}

}
