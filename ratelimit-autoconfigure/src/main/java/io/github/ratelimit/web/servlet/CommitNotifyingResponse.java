package io.github.ratelimit.web.servlet;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.ByteBuffer;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;

/**
 * A response that tells its {@link Listener} once, with the status it commits with, just
 * before it commits: before a flush ({@link #flushBuffer()}, a flush or close of its
 * output stream or writer), {@code sendError}, {@code sendRedirect}, and a write that
 * reaches the declared {@code Content-Length} or fills the buffer, each of which may put
 * the response on the wire. A write that the container commits anyway (a writer's
 * characters that take more bytes than counted) is told right after it. A response
 * committed only by the container once the filters are done is never told: the filter's
 * own end comes first.
 * <p>
 * In the spirit of Spring Security's {@code OnCommittedResponseWrapper}, without needing
 * Spring Security. Like any servlet response, not for concurrent use.
 */
final class CommitNotifyingResponse extends HttpServletResponseWrapper {

	private static final Logger logger = LoggerFactory.getLogger(CommitNotifyingResponse.class);

	private final Listener listener;

	private boolean told;

	/** The declared {@code Content-Length}; {@code -1} while none is. */
	private long contentLength = -1;

	/** Bytes (characters, through the writer) written since the last reset. */
	private long written;

	private @Nullable ServletOutputStream outputStream;

	private @Nullable PrintWriter writer;

	CommitNotifyingResponse(HttpServletResponse response, Listener listener) {
		super(response);
		this.listener = listener;
	}

	@Override
	public void sendError(int sc) throws IOException {
		commits(sc, null);
		super.sendError(sc);
	}

	@Override
	public void sendError(int sc, String msg) throws IOException {
		commits(sc, null);
		super.sendError(sc, msg);
	}

	@Override
	public void sendRedirect(String location) throws IOException {
		commits(SC_FOUND, location);
		super.sendRedirect(location);
	}

	@Override
	public void sendRedirect(String location, boolean clearBuffer) throws IOException {
		commits(SC_FOUND, location);
		super.sendRedirect(location, clearBuffer);
	}

	@Override
	public void sendRedirect(String location, int sc) throws IOException {
		commits(sc, location);
		super.sendRedirect(location, sc);
	}

	@Override
	public void sendRedirect(String location, int sc, boolean clearBuffer) throws IOException {
		commits(sc, location);
		super.sendRedirect(location, sc, clearBuffer);
	}

	@Override
	public void flushBuffer() throws IOException {
		commits();
		super.flushBuffer();
	}

	@Override
	public void setContentLength(int len) {
		super.setContentLength(len);
		declared(len);
	}

	@Override
	public void setContentLengthLong(long len) {
		super.setContentLengthLong(len);
		declared(len);
	}

	@Override
	public void setHeader(String name, String value) {
		super.setHeader(name, value);
		declared(name, value);
	}

	@Override
	public void addHeader(String name, String value) {
		super.addHeader(name, value);
		declared(name, value);
	}

	@Override
	public void setIntHeader(String name, int value) {
		super.setIntHeader(name, value);
		declared(name, String.valueOf(value));
	}

	@Override
	public void addIntHeader(String name, int value) {
		super.addIntHeader(name, value);
		declared(name, String.valueOf(value));
	}

	@Override
	public void reset() {
		super.reset();
		this.contentLength = -1;
		this.written = 0;
	}

	@Override
	public void resetBuffer() {
		super.resetBuffer();
		this.written = 0;
	}

	@Override
	public ServletOutputStream getOutputStream() throws IOException {
		ServletOutputStream delegate = super.getOutputStream();
		if (this.outputStream == null) {
			this.outputStream = new NotifyingOutputStream(delegate);
		}
		return this.outputStream;
	}

	@Override
	public PrintWriter getWriter() throws IOException {
		PrintWriter delegate = super.getWriter();
		if (this.writer == null) {
			this.writer = new NotifyingWriter(delegate);
		}
		return this.writer;
	}

	private void declared(String name, @Nullable String value) {
		if (value != null && HttpHeaders.CONTENT_LENGTH.equalsIgnoreCase(name)) {
			try {
				declared(Long.parseLong(value.trim()));
			}
			catch (NumberFormatException ex) {
				// not a length the container will send either
			}
		}
	}

	private void declared(long length) {
		this.contentLength = length;
		// a body written before its length was declared may complete it already
		writing(0);
	}

	/**
	 * Notes a write of {@code length} bytes about to happen, telling the listener first
	 * when the write completes the declared body or fills the buffer.
	 */
	private void writing(long length) {
		if (this.told) {
			return;
		}
		this.written += length;
		boolean complete = this.contentLength > 0 && this.written >= this.contentLength;
		int bufferSize = getBufferSize();
		if (complete || (bufferSize > 0 && this.written >= bufferSize)) {
			commits();
		}
	}

	/** After a write: the container may have committed on its own count. */
	private void wrote() {
		if (!this.told && isCommitted()) {
			commits();
		}
	}

	private void commits() {
		if (!this.told) {
			commits(getStatus(), getHeader(HttpHeaders.LOCATION));
		}
	}

	private void commits(int status, @Nullable String location) {
		if (this.told) {
			return;
		}
		this.told = true;
		try {
			this.listener.committed(status, location);
		}
		catch (RuntimeException ex) {
			// the response goes on: the limiter never fails one
			logger.error("Rate limiter failed when the response committed", ex);
		}
	}

	/** Told once, just before the response commits. */
	@FunctionalInterface
	interface Listener {

		/**
		 * The response commits.
		 * @param status the status it commits with
		 * @param location its {@code Location} header (a redirect's target), or
		 * {@code null}
		 */
		void committed(int status, @Nullable String location);

	}

	private final class NotifyingOutputStream extends ServletOutputStream {

		private final ServletOutputStream delegate;

		NotifyingOutputStream(ServletOutputStream delegate) {
			this.delegate = delegate;
		}

		@Override
		public void write(int b) throws IOException {
			writing(1);
			this.delegate.write(b);
			wrote();
		}

		@Override
		public void write(byte[] b, int off, int len) throws IOException {
			writing(len);
			this.delegate.write(b, off, len);
			wrote();
		}

		@Override
		public void write(ByteBuffer buffer) throws IOException {
			writing(buffer.remaining());
			this.delegate.write(buffer);
			wrote();
		}

		@Override
		public void print(@Nullable String s) throws IOException {
			// the container's own encoding, counted in characters (see NotifyingWriter)
			writing((s != null) ? s.length() : 4);
			this.delegate.print(s);
			wrote();
		}

		@Override
		public void flush() throws IOException {
			commits();
			this.delegate.flush();
		}

		@Override
		public void close() throws IOException {
			commits();
			this.delegate.close();
		}

		@Override
		public boolean isReady() {
			return this.delegate.isReady();
		}

		@Override
		public void setWriteListener(WriteListener writeListener) {
			this.delegate.setWriteListener(writeListener);
		}

	}

	/**
	 * Counts characters: a lower bound of the bytes they take, so a write that commits
	 * beyond the count is told right after it.
	 */
	private final class NotifyingWriter extends PrintWriter {

		private final PrintWriter delegate;

		NotifyingWriter(PrintWriter delegate) {
			super(delegate);
			this.delegate = delegate;
		}

		@Override
		public void write(int c) {
			writing(1);
			this.delegate.write(c);
			wrote();
		}

		@Override
		public void write(char[] buf, int off, int len) {
			writing(len);
			this.delegate.write(buf, off, len);
			wrote();
		}

		@Override
		public void write(String s, int off, int len) {
			writing(len);
			this.delegate.write(s, off, len);
			wrote();
		}

		@Override
		public void println() {
			// PrintWriter's own goes to the delegate's lock, not through write()
			write(System.lineSeparator());
		}

		@Override
		public void flush() {
			commits();
			this.delegate.flush();
		}

		@Override
		public void close() {
			commits();
			this.delegate.close();
		}

		@Override
		public boolean checkError() {
			return this.delegate.checkError();
		}

	}

}
