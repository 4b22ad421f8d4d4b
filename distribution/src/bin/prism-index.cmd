@echo off
rem prism-index launcher for Windows, of the distribution archives: runs lib\prism-index.jar beside
rem this bin\ directory with the bundled runtime (runtime\bin\java.exe) when there is one, else
rem %JAVA_HOME%\bin\java.exe, else java on the PATH. Usage: prism-index COMMAND [OPTIONS]
rem (docs/cli.md). Unlike bin/prism-index (bash), it keeps no class-data archive and every search runs
rem in its own JVM (no resident server). Extra JVM options: PRISM_INDEX_JAVA_OPTS.
setlocal
set "PRISM_INDEX_HOME=%~dp0.."
set "PRISM_INDEX_JAVA=java"
if defined JAVA_HOME if exist "%JAVA_HOME%\bin\java.exe" set "PRISM_INDEX_JAVA=%JAVA_HOME%\bin\java.exe"
if exist "%PRISM_INDEX_HOME%\runtime\bin\java.exe" set "PRISM_INDEX_JAVA=%PRISM_INDEX_HOME%\runtime\bin\java.exe"
if not exist "%PRISM_INDEX_HOME%\lib\prism-index.jar" (
  echo prism-index: no jar at %PRISM_INDEX_HOME%\lib\prism-index.jar 1>&2
  exit /b 1
)

rem Short-lived commands (search, status, completion, help) start faster with C1 only and the serial
rem collector; index, serve and mcp keep the JVM's defaults. The first argument naming a command
rem decides (global options such as --repo DIR may stand before it).
set "PRISM_INDEX_TUNE=-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"
:scan
if "%~1"=="" goto run
if /i "%~1"=="--repo" (shift & shift & goto scan)
if /i "%~1"=="--index-dir" (shift & shift & goto scan)
if /i "%~1"=="index" (set "PRISM_INDEX_TUNE=" & goto run)
if /i "%~1"=="serve" (set "PRISM_INDEX_TUNE=" & goto run)
if /i "%~1"=="mcp" (set "PRISM_INDEX_TUNE=" & goto run)
if /i "%~1"=="search" goto run
if /i "%~1"=="status" goto run
shift
goto scan

:run
rem JVM warnings go to stderr, never stdout (where NDJSON goes).
"%PRISM_INDEX_JAVA%" -Xlog:disable -Xlog:all=error:stderr -XX:+DisplayVMOutputToStderr %PRISM_INDEX_TUNE% %PRISM_INDEX_JAVA_OPTS% -jar "%PRISM_INDEX_HOME%\lib\prism-index.jar" %*
exit /b %ERRORLEVEL%
