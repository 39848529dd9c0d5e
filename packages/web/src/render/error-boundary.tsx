/**
 * Catches errors thrown while rendering in the browser and shows the segment's error view,
 * with a reset that renders the segment again.
 */
import {
  Component,
  type ComponentType,
  type ContextType,
  type ErrorInfo,
  type ReactNode,
} from 'react';
import { ErrorReporterContext } from './error-reporting.js';
import type { ErrorViewProps } from '../routes/route-types.js';

interface Props {
  readonly view: ComponentType<ErrorViewProps>;
  readonly children: ReactNode;
  readonly onError?: (error: unknown, info: ErrorInfo) => void;
}

interface State {
  readonly error: { message: string; digest?: string } | null;
}

/** An error boundary for one segment. */
export class SegmentErrorBoundary extends Component<Props, State> {
  static override contextType = ErrorReporterContext;
  declare context: ContextType<typeof ErrorReporterContext>;
  override state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    const digest = (error as { digest?: unknown } | null)?.digest;
    return {
      error: {
        message: error instanceof Error ? error.message : String(error),
        ...(typeof digest === 'string' && { digest }),
      },
    };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    this.context?.clientError(error);
    this.props.onError?.(error, info);
  }

  override render(): ReactNode {
    const View = this.props.view;
    if (this.state.error)
      return <View error={this.state.error} reset={() => this.setState({ error: null })} />;
    return this.props.children;
  }
}
