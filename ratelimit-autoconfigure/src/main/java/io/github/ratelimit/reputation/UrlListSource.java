package io.github.ratelimit.reputation;

import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.net.HttpURLConnection;
import java.net.URL;
import java.net.URLConnection;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * A list read from a URL ({@code https:}, {@code http:}, {@code file:}, a classpath
 * resource's {@code jar:}), with timeouts: a feed that stops answering fails the refresh
 * (the last good list stays) instead of hanging it. An HTTP status other than 2xx fails
 * it too, so an error page is never read as a list.
 */
public final class UrlListSource implements ListSource {

	private final URL url;

	private final int timeoutMillis;

	/**
	 * Creates a source.
	 * @param url the list's URL
	 * @param timeout the most a connect, and then each read, may take
	 */
	public UrlListSource(URL url, Duration timeout) {
		this.url = url;
		this.timeoutMillis = (int) Math.min(Integer.MAX_VALUE, Math.max(1, timeout.toMillis()));
	}

	@Override
	public String location() {
		// user info in a URL is a credential: never logged
		String text = this.url.toString();
		String userInfo = this.url.getUserInfo();
		return (userInfo != null) ? text.replace(userInfo + "@", "") : text;
	}

	@Override
	public Reader open() throws IOException {
		URLConnection connection = this.url.openConnection();
		connection.setConnectTimeout(this.timeoutMillis);
		connection.setReadTimeout(this.timeoutMillis);
		connection.setUseCaches(false);
		if (connection instanceof HttpURLConnection http) {
			int status = http.getResponseCode();
			if (status < 200 || status > 299) {
				http.disconnect();
				throw new IOException("HTTP " + status);
			}
		}
		return new InputStreamReader(connection.getInputStream(), StandardCharsets.UTF_8);
	}

	@Override
	public String toString() {
		return location();
	}

}
